import Foundation
import PagerContracts

/// An actor-based pager for a cursor API, with UUID item IDs. Actor reentrancy means state can
/// change across every `await`, so the ticket (generation + cursor) is compared after it.
actor CursorFeedActor {
    typealias Loader = @Sendable (_ query: String, _ cursor: String?) async throws -> PageResponse

    private struct Ticket: Equatable {
        let generation: Int
        let cursor: String?
    }

    private(set) var ids: [UUID] = []
    private(set) var failed = false
    private(set) var hasMore = true
    private(set) var protocolError = false
    private var inFlight: Ticket?
    private var query = "A"
    private var generation = 0
    private var cursor: String?
    private var requestedCursors: Set<String> = []
    private var emptyPagesInARow = 0
    private let loader: Loader

    init(loader: @escaping Loader) {
        self.loader = loader
    }

    var isLoading: Bool { inFlight != nil }

    func loadMore() async {
        guard inFlight == nil, hasMore, !protocolError else { return }
        let ticket = Ticket(generation: generation, cursor: cursor)
        inFlight = ticket
        if let cursor { requestedCursors.insert(cursor) }
        do {
            let response = try await loader(query, ticket.cursor)
            guard inFlight == ticket else { return }
            accept(response, for: ticket)
        } catch {
            guard inFlight == ticket else { return }
            inFlight = nil
            failed = true
        }
    }

    func changeQuery(to newQuery: String) async {
        query = newQuery
        reset()
    }

    func refresh() async {
        reset()
        await loadMore()
    }

    private func accept(_ response: PageResponse, for ticket: Ticket) {
        var seen = Set(ids)
        let added = response.rows.map(\.uuid).filter { seen.insert($0).inserted }
        ids += added
        emptyPagesInARow = added.isEmpty ? emptyPagesInARow + 1 : 0
        inFlight = nil
        failed = false
        hasMore = response.hasMore
        cursor = response.nextCursor
        if hasMore {
            let next = response.nextCursor
            protocolError = next == nil || next == ticket.cursor
                || next.map(requestedCursors.contains) == true || emptyPagesInARow >= 3
        }
    }

    private func reset() {
        generation += 1
        inFlight = nil
        cursor = nil
        ids = []
        hasMore = true
        failed = false
        protocolError = false
        requestedCursors = []
        emptyPagesInARow = 0
    }
}

/// Drives ``CursorFeedActor``.
struct CursorFeedActorAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(pagination: .cursors, triggers: [.refresh])

    let feed: CursorFeedActor

    init(source: PageSource) async {
        feed = CursorFeedActor(loader: { try await source.load(query: $0, cursor: $1) })
    }

    func bottomReached() async { await feed.loadMore() }
    func changeQuery(to query: String) async { await feed.changeQuery(to: query) }
    func refresh() async { await feed.refresh() }

    func snapshot() async -> PagerSnapshot<UUID> {
        PagerSnapshot(
            visibleIDs: await feed.ids, isLoading: await feed.isLoading,
            hasMore: await feed.hasMore, showsError: await feed.failed,
            hasProtocolError: await feed.protocolError)
    }

    static func itemID(for row: PageRow) -> UUID { row.uuid }
}
