import ConformanceTesting

/// A broken fixture, the fourth trial's shape: `hasMore` starts `false` ("nothing known yet")
/// and only a query change sets it, so the first query's bottom trigger never loads anything.
/// Its snapshot shows `hasMore: false` before any page was accepted, which the liveness check
/// once read as the end of the list.
struct PagerWhoseFirstTriggerIsDead: PagerModelAdapter {
    struct Ticket: Equatable {
        let generation: Int
        let page: Int
    }

    private var generation = 0
    private var nextPage = 1
    private var ids: [Int] = []
    private var inFlight: Ticket?
    private var hasMore = false  // the bug: set only by a query change
    private var failed = false

    mutating func bottomReached() -> PageRequest<Ticket>? {
        guard hasMore, inFlight == nil else { return nil }
        let ticket = Ticket(generation: generation, page: nextPage)
        inFlight = ticket
        failed = false
        return PageRequest(ticket, page: ticket.page)
    }

    mutating func changeQuery(to query: String) -> PageRequest<Ticket>? {
        generation += 1
        nextPage = 1
        ids = []
        inFlight = nil
        hasMore = true
        failed = false
        return nil
    }

    mutating func deliver(_ response: PageResponse, for ticket: Ticket) -> PageRequest<Ticket>? {
        guard ticket == inFlight else { return nil }
        for row in response.rows where !ids.contains(row.id) { ids.append(row.id) }
        nextPage += 1
        hasMore = response.hasMore
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
        PagerSnapshot(visibleIDs: ids, isLoading: inFlight != nil, hasMore: hasMore, showsError: failed)
    }
}
