import Foundation

/// A message row in the inbox list.
struct MailboxMessage: Identifiable, Hashable, Sendable {
    let id: UUID
    var subject: String
    var isUnread: Bool
}

/// What the inbox is currently showing.
struct InboxFilter: Hashable, Sendable {
    var searchText: String = ""
    var unreadOnly: Bool = false
}

/// The page-numbered inbox endpoint. Pages start at 1.
protocol InboxService: Sendable {
    func messages(filter: InboxFilter, page: Int) async throws -> (rows: [MailboxMessage], hasMore: Bool)
}

/// An immutable copy of the pager's state for the view layer.
struct InboxSnapshot: Sendable, Equatable {
    var filter: InboxFilter
    var messages: [MailboxMessage]
    var isLoading: Bool
    var hasMore: Bool
    var errorMessage: String?

    var isEmpty: Bool { messages.isEmpty && !isLoading && !hasMore }
}
