// Comments under a post, sorted "Newest" or "Top". App code from a UIKit app: the view
// controller owns a value-type pagination state and feeds it the API client's completion
// handlers (the same struct is unit-tested on its own). Cursor pagination.
import Foundation

public struct Comment: Hashable, Sendable {
    public let id: String
    public let body: String

    public init(id: String, body: String) {
        self.id = id
        self.body = body
    }
}

public struct CommentsPage: Sendable {
    public let comments: [Comment]
    public let hasMore: Bool
    public let nextCursor: String?

    public init(comments: [Comment], hasMore: Bool, nextCursor: String?) {
        self.comments = comments
        self.hasMore = hasMore
        self.nextCursor = nextCursor
    }
}

public struct CommentThreadPagination: Sendable {
    /// What the view controller hands to `CommentsAPI.fetch` and gets back in the completion.
    public struct Ticket: Hashable, Sendable {
        public let generation: Int
        public let sort: String
        public let cursor: String?
    }

    public enum Footer: Equatable, Sendable {
        case idle        // sentinel armed
        case loading     // spinner
        case failed      // "Couldn't load comments" + Retry button
        case end         // "That's all the comments"
        case stalled     // the server handed back a cursor we already used: stop, log it
    }

    public private(set) var comments: [Comment] = []
    public private(set) var footer: Footer = .idle
    public private(set) var sort: String

    private var generation = 0
    private var nextCursor: String?
    private var inFlight: Ticket?
    private var seenCommentIDs: Set<String> = []
    private var usedCursors: Set<String> = []

    public init(sort: String = "newest") {
        self.sort = sort
    }

    // MARK: Triggers (each returns the request to send, if any)

    /// The table view's prefetch / willDisplay of the last cell.
    public mutating func requestForNextPage() -> Ticket? {
        guard inFlight == nil, footer == .idle else { return nil }
        return begin()
    }

    /// The footer's Retry button: same cursor as the page that failed.
    public mutating func requestForRetry() -> Ticket? {
        guard inFlight == nil, footer == .failed else { return nil }
        return begin()
    }

    /// The sort switch ("Newest" / "Top"): a new thread listing, loaded right away.
    public mutating func changeSort(to newSort: String) -> Ticket? {
        sort = newSort
        restart()
        return begin()
    }

    /// Pull to refresh: reload from the top, new generation.
    public mutating func requestForRefresh() -> Ticket? {
        restart()
        return begin()
    }

    // MARK: Completions

    public mutating func didLoad(_ page: CommentsPage, for ticket: Ticket) {
        // Only the request we are waiting for may change the list: a late answer from an
        // old sort or a refresh, or the same answer twice, falls out here.
        guard ticket == inFlight else { return }
        inFlight = nil

        for comment in page.comments where seenCommentIDs.insert(comment.id).inserted {
            comments.append(comment)
        }

        guard page.hasMore, let next = page.nextCursor else {
            footer = .end
            nextCursor = nil
            return
        }
        // Same cursor back, or one we already walked past: the server is looping.
        if next == ticket.cursor || usedCursors.contains(next) {
            footer = .stalled
            return
        }
        if let used = ticket.cursor { usedCursors.insert(used) }
        nextCursor = next
        footer = .idle
    }

    public mutating func didFail(_ error: any Error, for ticket: Ticket) {
        // A failure never carries rows, so there is nothing to de-duplicate: only make
        // sure the user has not switched sort or refreshed since.
        guard ticket.generation == generation else { return }
        inFlight = nil
        footer = .failed
    }

    // MARK: Private

    private mutating func begin() -> Ticket {
        let ticket = Ticket(generation: generation, sort: sort, cursor: nextCursor)
        inFlight = ticket
        footer = .loading
        return ticket
    }

    private mutating func restart() {
        generation += 1
        comments = []
        seenCommentIDs = []
        usedCursors = []
        nextCursor = nil
        inFlight = nil
        footer = .idle
    }
}

// MARK: - The API client the view controller uses

public enum CommentsAPIError: Error, Sendable {
    case timedOut
    case http(Int)
}

/// Wraps the transport with the app's own 15 s watchdog (the backend's load balancer can
/// hold a connection open for minutes). Used by `CommentsViewController`:
///
///     if let ticket = pagination.requestForNextPage() {
///         api.fetch(ticket) { [weak self] result in
///             DispatchQueue.main.async { self?.handle(result, for: ticket) }
///         }
///     }
public final class CommentsAPI: Sendable {
    public typealias Transport = @Sendable (
        _ sort: String, _ cursor: String?,
        _ completion: @escaping @Sendable (Result<CommentsPage, any Error>) -> Void
    ) -> Void

    private let transport: Transport
    private let timeout: TimeInterval

    public init(timeout: TimeInterval = 15, transport: @escaping Transport) {
        self.transport = transport
        self.timeout = timeout
    }

    public func fetch(
        _ ticket: CommentThreadPagination.Ticket,
        completion: @escaping @Sendable (Result<CommentsPage, any Error>) -> Void
    ) {
        transport(ticket.sort, ticket.cursor, completion)
        // The watchdog is not cancelled when the transport answers first: a slow success
        // is followed by a timeout for the same request (the pagination must cope).
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            completion(.failure(CommentsAPIError.timedOut))
        }
    }
}
