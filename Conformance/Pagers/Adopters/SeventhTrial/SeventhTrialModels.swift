import Foundation

/// What the backend hands back for one page of a list. Cursor APIs fill `nextCursor`;
/// page-number APIs leave it nil.
public struct R7Page<Item: Sendable>: Sendable {
    public var items: [Item]
    public var hasMore: Bool
    public var nextCursor: String?

    public init(items: [Item], hasMore: Bool, nextCursor: String? = nil) {
        self.items = items
        self.hasMore = hasMore
        self.nextCursor = nextCursor
    }
}

public struct R7Product: Identifiable, Hashable, Sendable {
    public let id: Int
    public var name: String
    public init(id: Int, name: String) { self.id = id; self.name = name }
}

public struct R7Article: Identifiable, Hashable, Sendable {
    public let id: Int
    public var headline: String
    public init(id: Int, headline: String) { self.id = id; self.headline = headline }
}

/// True for the errors that mean "somebody cancelled this request" rather than a real failure.
public func r7IsCancellation(_ error: any Error) -> Bool {
    if error is CancellationError { return true }
    if let urlError = error as? URLError, urlError.code == .cancelled { return true }
    return false
}
