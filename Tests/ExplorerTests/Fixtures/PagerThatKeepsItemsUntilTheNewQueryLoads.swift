import ConformanceTesting

/// A pager that keeps the old query's items on screen until the new query's first page
/// arrives, then replaces them. The invariants allow it (nothing new from the old query becomes
/// visible); a differential check against the reference `Pager`, which clears at once, does not.
struct PagerThatKeepsItemsUntilTheNewQueryLoads: PagerModelAdapter {
    struct Ticket: Equatable {
        let generation: Int
        let page: Int
    }

    private var generation = 0
    private var nextPage = 1
    private var ids: [Int] = []
    private var inFlight: Ticket?
    private var hasMore = true
    private var replaceOnNextPage = false
    private var pagesWithoutProgress = 0

    mutating func bottomReached() -> PageRequest<Ticket>? {
        guard hasMore, inFlight == nil, pagesWithoutProgress < 3 else { return nil }
        let ticket = Ticket(generation: generation, page: nextPage)
        inFlight = ticket
        return PageRequest(ticket, page: ticket.page)
    }

    mutating func changeQuery(to query: String) -> PageRequest<Ticket>? {
        generation += 1
        nextPage = 1
        inFlight = nil
        hasMore = true
        pagesWithoutProgress = 0
        replaceOnNextPage = true
        return nil
    }

    mutating func deliver(_ response: PageResponse, for ticket: Ticket) -> PageRequest<Ticket>? {
        guard ticket == inFlight else { return nil }
        if replaceOnNextPage {
            ids = []
            replaceOnNextPage = false
        }
        let countBefore = ids.count
        for row in response.rows where !ids.contains(row.id) { ids.append(row.id) }
        pagesWithoutProgress = ids.count == countBefore ? pagesWithoutProgress + 1 : 0
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
