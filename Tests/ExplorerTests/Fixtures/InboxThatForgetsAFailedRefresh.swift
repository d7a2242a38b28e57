import ConformanceTesting

/// A broken fixture in the seventh trial's shape: pull to refresh keeps the rows on screen
/// until its first page arrives and replaces them then, but only the refresh's own request
/// replaces. When that request fails, the retry (or a bottom trigger) loads page 1 again as a
/// plain next page and appends it below the rows the refresh meant to replace.
///
/// The explorer named it P2 ("the list is not the accepted pages") or P4 ("items of a
/// non-current query"), whose hints point at de-duplication and ticket checks; the rule it
/// breaks is P11's: a refresh is a new query, whose first page replaces the list.
struct InboxThatForgetsAFailedRefresh: PagerModelAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh])

    struct Request: Equatable {
        let generation: Int
        let page: Int
        let replacesRows: Bool
    }

    private var generation = 0
    private var rows: [Int] = []
    private var nextPage = 1
    private var hasMore = true
    private var loading: Request?
    private var failedPage: Int?

    mutating func bottomReached() -> PageRequest<Request>? {
        guard hasMore, loading == nil else { return nil }
        return load(page: failedPage ?? nextPage, replacingRows: false)
    }

    mutating func retry() -> PageRequest<Request>? {
        guard let page = failedPage, loading == nil else { return nil }
        return load(page: page, replacingRows: false)  // the bug: the refresh's replace is forgotten
    }

    mutating func changeQuery(to query: String) -> PageRequest<Request>? {
        generation += 1
        rows = []
        nextPage = 1
        hasMore = true
        failedPage = nil
        loading = nil
        return load(page: 1, replacingRows: true)
    }

    mutating func refresh() -> PageRequest<Request>? {
        generation += 1
        nextPage = 1
        hasMore = true
        failedPage = nil
        loading = nil
        return load(page: 1, replacingRows: true)  // rows stay on screen until page 1 arrives
    }

    mutating func deliver(_ response: PageResponse, for request: Request) -> PageRequest<Request>? {
        guard request == loading else { return nil }
        loading = nil
        failedPage = nil
        if request.replacesRows { rows = [] }
        for row in response.rows where !rows.contains(row.id) { rows.append(row.id) }
        nextPage = request.page + 1
        hasMore = response.hasMore
        return nil
    }

    mutating func fail(_ failure: PageFailure, for request: Request) -> PageRequest<Request>? {
        guard request == loading else { return nil }
        loading = nil
        failedPage = request.page
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(visibleIDs: rows, isLoading: loading != nil, hasMore: hasMore, showsError: failedPage != nil)
    }

    private mutating func load(page: Int, replacingRows: Bool) -> PageRequest<Request> {
        let request = Request(generation: generation, page: page, replacesRows: replacingRows)
        loading = request
        return PageRequest(request, page: page)
    }
}
