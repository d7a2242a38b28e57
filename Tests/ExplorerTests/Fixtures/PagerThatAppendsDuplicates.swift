import ConformanceTesting

/// A broken fixture: appends every row of an accepted page, so an ID shown on page 1 shows
/// again when page 2 repeats it. No bundled mutant breaks I2; this one does.
struct PagerThatAppendsDuplicates: PagerModelAdapter {
    struct Ticket: Equatable {
        let generation: Int
        let page: Int
    }

    private var generation = 0
    private var nextPage = 1
    private var ids: [Int] = []
    private var inFlight: Ticket?
    private var hasMore = true

    mutating func bottomReached() -> PageRequest<Ticket>? {
        guard hasMore, inFlight == nil else { return nil }
        let ticket = Ticket(generation: generation, page: nextPage)
        inFlight = ticket
        return PageRequest(ticket, page: ticket.page)
    }

    mutating func changeQuery(to query: String) -> PageRequest<Ticket>? {
        generation += 1
        nextPage = 1
        ids = []
        inFlight = nil
        hasMore = true
        return nil
    }

    mutating func deliver(_ response: PageResponse, for ticket: Ticket) -> PageRequest<Ticket>? {
        guard ticket == inFlight else { return nil }
        ids += response.rows.map(\.id)  // the bug: no de-duplication
        nextPage += 1
        hasMore = response.hasMore
        inFlight = nil
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: Ticket) -> PageRequest<Ticket>? {
        if ticket == inFlight { inFlight = nil }
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(visibleIDs: ids, isLoading: inFlight != nil, hasMore: hasMore)
    }
}
