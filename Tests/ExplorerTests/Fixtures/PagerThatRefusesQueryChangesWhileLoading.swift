import ConformanceTesting

/// A pager that refuses a query change while a page loads: its search field throws "busy" and
/// keeps the list it has (some apps disable the field until the page arrives). Otherwise it has
/// every guard: in-flight, de-duplication, end of list, no-progress stop. A refused change
/// starts nothing and changes nothing, so the explorer must judge the list by the query it still
/// shows: no answer it accepts is a stale one.
struct PagerThatRefusesQueryChangesWhileLoading: PagerModelAdapter {
    struct Busy: Error, CustomStringConvertible {
        var description: String { "busy: a page is loading" }
    }

    struct Ticket: Equatable {
        let generation: Int
        let page: Int
    }

    private var generation = 0
    private var nextPage = 1
    private var ids: [Int] = []
    private var inFlight: Ticket?
    private var hasMore = true
    private var failed = false
    private var emptyPagesInARow = 0

    mutating func bottomReached() -> PageRequest<Ticket>? {
        guard hasMore, inFlight == nil, emptyPagesInARow < 3 else { return nil }
        let ticket = Ticket(generation: generation, page: nextPage)
        inFlight = ticket
        return PageRequest(ticket, page: ticket.page)
    }

    mutating func changeQuery(to query: String) throws -> PageRequest<Ticket>? {
        guard inFlight == nil else { throw Busy() }
        generation += 1
        nextPage = 1
        ids = []
        hasMore = true
        failed = false
        emptyPagesInARow = 0
        return bottomReached()
    }

    mutating func deliver(_ response: PageResponse, for ticket: Ticket) -> PageRequest<Ticket>? {
        guard ticket == inFlight else { return nil }
        var known = Set(ids)
        let added = response.rows.map(\.id).filter { known.insert($0).inserted }
        ids += added
        emptyPagesInARow = added.isEmpty ? emptyPagesInARow + 1 : 0
        nextPage += 1
        hasMore = response.hasMore
        failed = false
        inFlight = nil
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: Ticket) -> PageRequest<Ticket>? {
        guard ticket == inFlight else { return nil }
        inFlight = nil
        failed = true
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: ids, isLoading: inFlight != nil, hasMore: hasMore, showsError: failed,
            hasProtocolError: emptyPagesInARow >= 3)
    }
}
