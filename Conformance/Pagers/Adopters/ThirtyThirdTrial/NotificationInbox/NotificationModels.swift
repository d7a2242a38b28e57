import Foundation

/// The tabs at the top of the notifications inbox.
public enum NotificationFilter: String, CaseIterable, Sendable, Hashable {
    case all
    case mentions
    case follows
}

/// One row of the inbox.
public struct NotificationItem: Identifiable, Hashable, Sendable {
    public enum Kind: String, Sendable, Hashable {
        case mention, follow, like, reply
    }

    public let id: String
    public var kind: Kind
    public var title: String

    public init(id: String, kind: Kind, title: String) {
        self.id = id
        self.kind = kind
        self.title = title
    }
}

/// One page of the inbox as the backend returns it.
public struct NotificationPage: Sendable {
    public var items: [NotificationItem]
    /// The cursor of the next page; `nil` means the end of the list.
    public var nextCursor: String?

    public init(items: [NotificationItem], nextCursor: String?) {
        self.items = items
        self.nextCursor = nextCursor
    }
}

/// The backend seam of the inbox screen.
public protocol NotificationRepository: Sendable {
    func page(filter: NotificationFilter, cursor: String?) async throws -> NotificationPage
}

/// What the error footer shows.
public struct NotificationLoadError: Error, Equatable, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
}
