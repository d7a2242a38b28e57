import ConformanceTesting

/// Pull to refresh keeps the rows on screen until the refreshed first page replaces them. When
/// the refresh's own request ends in a cancellation error, the inbox abandons the refresh: the
/// rows, the next page and the end it had before stay, no error is shown, and the next bottom
/// trigger loads the next page of that list. Trial 37's feed does this, and the explorer took
/// it for P6 (it expected the refresh's first page again).
///
/// With `abandonsOnEveryFailure`, a timeout or a server error abandons the refresh too, with no
/// error shown: that is P6's bug (a failure of the current page shows an error and a retry
/// asks for the page that failed).
struct InboxThatAbandonsACancelledRefresh: PagerModelAdapter {
    /// Every load comes from a trigger: after a page that adds nothing it waits for the user.
    static let capabilities = PagerCapabilities(triggers: [.refresh], stopsOnNoProgress: false)
    private var abandonsOnEveryFailure = false

    struct Request: Equatable {
        let generation: Int
        let page: Int
        let isRefresh: Bool
    }

    private struct ListState {
        var rows: [Int] = []
        var nextPage = 1
        var hasMore = true
    }

    private var generation = 0
    private var list = ListState()
    /// The list a refresh in flight (or failed) would replace.
    private var beforeRefresh: ListState?
    private var loading: Request?
    private var failed: Request?

    init() {}

    init(abandonsOnEveryFailure: Bool) {
        self.abandonsOnEveryFailure = abandonsOnEveryFailure
    }

    mutating func bottomReached() -> PageRequest<Request>? {
        guard loading == nil else { return nil }
        if let failed { return load(failed) }
        guard list.hasMore else { return nil }
        return load(Request(generation: generation, page: list.nextPage, isRefresh: false))
    }

    mutating func retry() -> PageRequest<Request>? {
        guard loading == nil, let failed else { return nil }
        return load(failed)
    }

    mutating func changeQuery(to query: String) -> PageRequest<Request>? {
        generation += 1
        list = ListState()
        beforeRefresh = nil
        failed = nil
        return load(Request(generation: generation, page: 1, isRefresh: false))
    }

    mutating func refresh() -> PageRequest<Request>? {
        generation += 1
        if beforeRefresh == nil { beforeRefresh = list }
        failed = nil
        return load(Request(generation: generation, page: 1, isRefresh: true))
    }

    mutating func deliver(_ response: PageResponse, for request: Request) -> PageRequest<Request>? {
        guard request == loading else { return nil }
        loading = nil
        failed = nil
        if request.isRefresh {
            list = ListState()
            beforeRefresh = nil
        }
        for row in response.rows where !list.rows.contains(row.id) { list.rows.append(row.id) }
        list.nextPage = request.page + 1
        list.hasMore = response.hasMore
        return nil
    }

    mutating func fail(_ failure: PageFailure, for request: Request) -> PageRequest<Request>? {
        guard request == loading else { return nil }
        loading = nil
        if request.isRefresh, let previous = beforeRefresh, failure == .cancelled || abandonsOnEveryFailure {
            // The refresh is abandoned: the list before it goes on, in a generation of its own.
            list = previous
            beforeRefresh = nil
            failed = nil
        } else {
            failed = request
        }
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(visibleIDs: list.rows, isLoading: loading != nil, hasMore: list.hasMore, showsError: failed != nil)
    }

    private mutating func load(_ request: Request) -> PageRequest<Request> {
        loading = request
        return PageRequest(request, page: request.page)
    }
}

/// P6's bug in the shape above: every failure of the refresh's own request abandons it, with
/// no error shown (a timeout is a failure the user must see, and retry asks for page 1).
struct InboxThatAbandonsAFailedRefresh: PagerModelAdapter {
    static let capabilities = InboxThatAbandonsACancelledRefresh.capabilities
    private var inbox = InboxThatAbandonsACancelledRefresh(abandonsOnEveryFailure: true)

    mutating func bottomReached() -> PageRequest<InboxThatAbandonsACancelledRefresh.Request>? { inbox.bottomReached() }
    mutating func retry() -> PageRequest<InboxThatAbandonsACancelledRefresh.Request>? { inbox.retry() }
    mutating func refresh() -> PageRequest<InboxThatAbandonsACancelledRefresh.Request>? { inbox.refresh() }

    mutating func changeQuery(to query: String) -> PageRequest<InboxThatAbandonsACancelledRefresh.Request>? {
        inbox.changeQuery(to: query)
    }

    mutating func deliver(
        _ response: PageResponse, for request: InboxThatAbandonsACancelledRefresh.Request
    ) -> PageRequest<InboxThatAbandonsACancelledRefresh.Request>? {
        inbox.deliver(response, for: request)
    }

    mutating func fail(
        _ failure: PageFailure, for request: InboxThatAbandonsACancelledRefresh.Request
    ) -> PageRequest<InboxThatAbandonsACancelledRefresh.Request>? {
        inbox.fail(failure, for: request)
    }

    func snapshot() -> PagerSnapshot<Int> { inbox.snapshot() }
}
