import PagerContracts

struct CachedQueryResultsAdapter: PagerModelAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers,
        stopsOnNoProgress: false)  // it never chains a load by itself; it waits for the next scroll

    var browser = RecipeBrowserState(filter: "A")

    mutating func bottomReached() -> PageRequest<RecipePageTicket>? {
        browser.reachedBottom().map { PageRequest($0, page: $0.page) }
    }

    mutating func changeQuery(to query: String) -> PageRequest<RecipePageTicket>? {
        let ticket = browser.selectFilter(query)
        return PageRequest(ticket, page: ticket.page)
    }

    mutating func retry() -> PageRequest<RecipePageTicket>? {
        browser.retryTapped().map { PageRequest($0, page: $0.page) }
    }

    mutating func deliver(_ response: PageResponse, for ticket: RecipePageTicket) -> PageRequest<RecipePageTicket>? {
        browser.pageArrived(
            response.rows.map { Recipe(id: $0.id, title: $0.title) },
            hasMore: response.hasMore, for: ticket)
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: RecipePageTicket) -> PageRequest<RecipePageTicket>? {
        browser.pageFailed(isCancellation: failure.isCancellation, for: ticket)
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: browser.recipes.map(\.id),
            isLoading: browser.isLoading,
            hasMore: browser.hasMore,
            showsError: browser.showsError)
    }
}
