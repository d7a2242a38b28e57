// Test target: the pagination struct at the model level (Docs/Pagers.md, "The adapter").
import PagerContracts

struct CommentThreadAdapter: PagerModelAdapter {
    typealias Ticket = CommentThreadPagination.Ticket
    typealias ItemID = String

    // Cursors, pull to refresh; it waits for the next scroll after a page that added
    // nothing (never chains a load by itself) and has a cursor-cycle check.
    static let capabilities = PagerCapabilities(
        pagination: .cursors, triggers: [.refresh], stopsOnNoProgress: false)

    var pagination = CommentThreadPagination(sort: "A")  // the kit's first query

    init() {}

    mutating func bottomReached() -> PageRequest<Ticket>? {
        pagination.requestForNextPage().map { PageRequest($0, cursor: $0.cursor) }
    }

    mutating func retry() -> PageRequest<Ticket>? {
        pagination.requestForRetry().map { PageRequest($0, cursor: $0.cursor) }
    }

    mutating func refresh() -> PageRequest<Ticket>? {
        pagination.requestForRefresh().map { PageRequest($0, cursor: $0.cursor) }
    }

    mutating func changeQuery(to query: String) -> PageRequest<Ticket>? {
        pagination.changeSort(to: query).map { PageRequest($0, cursor: $0.cursor) }
    }

    mutating func deliver(_ response: PageResponse, for ticket: Ticket) -> PageRequest<Ticket>? {
        let page = CommentsPage(
            comments: response.rows.map { Comment(id: $0.stringID, body: $0.title) },
            hasMore: response.hasMore,
            nextCursor: response.nextCursor)
        pagination.didLoad(page, for: ticket)
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: Ticket) -> PageRequest<Ticket>? {
        pagination.didFail(failure, for: ticket)
        return nil
    }

    func snapshot() -> PagerSnapshot<String> {
        PagerSnapshot(
            visibleIDs: pagination.comments.map(\.id),
            isLoading: pagination.footer == .loading,
            hasMore: pagination.footer != .end,
            showsError: pagination.footer == .failed,
            hasProtocolError: pagination.footer == .stalled)
    }

    static func itemID(for row: PageRow) -> String { row.stringID }
}
