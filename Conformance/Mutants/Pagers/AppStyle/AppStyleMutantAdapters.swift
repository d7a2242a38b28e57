import Foundation
import PagerContracts

// Adapters for the buggy pagers written by an author who had not read the kit (their code is
// in the files beside this one, unchanged; each marks its one bug with `// BUG:`).

/// `StaleCursorBeforeGuardPager`: stores `page.nextCursor` above the generation guard.
struct StaleCursorBeforeGuardPagerAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .cursors, triggers: [.refresh], stopsOnNoProgress: false,
        detectsCursorCycles: false)
    let model: StaleCursorBeforeGuardPager

    init(source: PageSource) async {
        model = await StaleCursorBeforeGuardPager(query: "A") { query, cursor in
            let response = try await source.load(query: query, cursor: cursor)
            return StaleCursorPage(
                items: response.rows.map { StaleCursorItem(id: $0.stringID) },
                nextCursor: response.nextCursor, hasMore: response.hasMore)
        }
    }

    func bottomReached() async { await model.loadMore() }
    func retry() async { await model.retry() }
    func changeQuery(to query: String) async { await model.setQuery(query) }
    func refresh() async { await model.refresh() }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.visibleIDs, isLoading: model.isLoading, hasMore: model.hasMore,
                showsError: model.errorMessage != nil, hasProtocolError: model.isStalled)
        }
    }

    static func itemID(for row: PageRow) -> String { row.stringID }
}

/// `StalePageNumberBeforeGuardPager`: writes `nextPage = page + 1` above the generation guard.
struct StalePageNumberBeforeGuardPagerAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh], stopsOnNoProgress: false)
    let model: StalePageNumberBeforeGuardPager

    init(source: PageSource) async {
        model = await StalePageNumberBeforeGuardPager(query: "A") { query, page in
            let response = try await source.load(query: query, page: page)
            return StalePageNumberPage(
                items: response.rows.map { StalePageNumberItem(id: $0.stringID) },
                hasMore: response.hasMore)
        }
    }

    func bottomReached() async { await model.loadMore() }
    func retry() async { await model.retry() }
    func changeQuery(to query: String) async { await model.setQuery(query) }
    func refresh() async { await model.refresh() }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.visibleIDs, isLoading: model.isLoading, hasMore: model.hasMore,
                showsError: model.errorMessage != nil)
        }
    }

    static func itemID(for row: PageRow) -> String { row.stringID }
}

/// `SelfChainingPager`: fetches the next page by itself while a page added nothing new.
struct SelfChainingPagerAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh], stopsOnNoProgress: false)
    let model: SelfChainingPager

    init(source: PageSource) async {
        model = await SelfChainingPager(query: "A") { query, page in
            let response = try await source.load(query: query, page: page)
            return SelfChainingPage(
                items: response.rows.map { SelfChainingItem(id: $0.stringID) },
                hasMore: response.hasMore)
        }
    }

    func bottomReached() async { await model.loadMore() }
    func retry() async { await model.retry() }
    func changeQuery(to query: String) async { await model.setQuery(query) }
    func refresh() async { await model.refresh() }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.visibleIDs, isLoading: model.isLoading, hasMore: model.hasMore,
                showsError: model.errorMessage != nil)
        }
    }

    static func itemID(for row: PageRow) -> String { row.stringID }
}

/// `TrapOnRepeatedIDPager`: builds `Dictionary(uniqueKeysWithValues:)` over visible and new
/// items, which traps on a repeated ID.
struct TrapOnRepeatedIDPagerAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh], stopsOnNoProgress: false)
    let model: TrapOnRepeatedIDPager

    init(source: PageSource) async {
        model = await TrapOnRepeatedIDPager(query: "A") { query, page in
            let response = try await source.load(query: query, page: page)
            return TrapOnRepeatedIDPage(
                items: response.rows.map { TrapOnRepeatedIDItem(id: $0.stringID) },
                hasMore: response.hasMore)
        }
    }

    func bottomReached() async { await model.loadMore() }
    func retry() async { await model.retry() }
    func changeQuery(to query: String) async { await model.setQuery(query) }
    func refresh() async { await model.refresh() }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.visibleIDs, isLoading: model.isLoading, hasMore: model.hasMore,
                showsError: model.errorMessage != nil)
        }
    }

    static func itemID(for row: PageRow) -> String { row.stringID }
}

/// `MainQueueCallbackPager`: a completion-handler service whose completion the pager hops onto
/// the main actor with `Task { @MainActor in … }`. Written as a correct pager; the kit found a
/// real bug in it (P3: its ticket is the query generation only, so a completion that runs
/// twice clears the loading state while the next page loads, and the next bottom trigger
/// requests that page again). The adapter calls the callback-style triggers, as a
/// view controller does (its `withCheckedContinuation` wrappers trap when a completion runs
/// twice: "tried to resume its continuation more than once").
struct MainQueueCallbackPagerAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        triggers: [.refresh], loader: .completionHandler, stopsOnNoProgress: false)

    /// The app's service protocol, served by the kit's page source.
    struct KitService: MainQueueCallbackItemService {
        let source: PageSource

        func load(
            query: String, page: Int,
            completion: @escaping @Sendable (Result<MainQueueCallbackPage, any Error>) -> Void
        ) {
            source.load(query: query, page: page) { (result: Result<PageResponse, any Error>) in
                completion(
                    result.map { response in
                        MainQueueCallbackPage(
                            items: response.rows.map { MainQueueCallbackItem(id: $0.stringID) },
                            hasMore: response.hasMore)
                    })
            }
        }
    }

    let pager: MainQueueCallbackPager

    init(source: PageSource) async {
        pager = await MainQueueCallbackPager(query: "A", service: KitService(source: source))
    }

    func bottomReached() async { await pager.loadNextPage() }
    func retry() async { await pager.retry(completion: nil) }
    func changeQuery(to query: String) async { await pager.search(query, completion: nil) }
    func refresh() async { await pager.refresh(completion: nil) }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: pager.visibleIDs, isLoading: pager.isLoading, hasMore: pager.hasMore,
                showsError: pager.errorMessage != nil)
        }
    }

    static func itemID(for row: PageRow) -> String { row.stringID }
}

/// `ReducerFeedState`: a reducer-style feed state whose store runs the fetch effects. Its one
/// bug: a cancellation error returns early before the current-request check, so a cancelled
/// live request leaves the loading state set for good (P6's cancellation part; the explorer
/// finds it through its liveness check at the end of a schedule). It has no no-progress bound.
struct ReducerFeedStateAdapter: PagerModelAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh], stopsOnNoProgress: false)
    var state = ReducerFeedState()

    mutating func bottomReached() -> PageRequest<ReducerFetchEffect>? {
        state.scrolledToBottom().map { PageRequest($0, page: $0.page) }
    }

    mutating func changeQuery(to query: String) -> PageRequest<ReducerFetchEffect>? {
        state.queryChanged(to: query).map { PageRequest($0, page: $0.page) }
    }

    mutating func refresh() -> PageRequest<ReducerFetchEffect>? {
        state.pulledToRefresh().map { PageRequest($0, page: $0.page) }
    }

    mutating func retry() -> PageRequest<ReducerFetchEffect>? {
        state.retryTapped().map { PageRequest($0, page: $0.page) }
    }

    mutating func deliver(_ response: PageResponse, for ticket: ReducerFetchEffect) -> PageRequest<ReducerFetchEffect>? {
        let items = response.rows.map { ReducerFeedItem(id: $0.stringID, title: "Item \($0.id)") }
        state.fetchSucceeded(ReducerFeedPage(items: items, hasMore: response.hasMore), for: ticket)
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: ReducerFetchEffect) -> PageRequest<ReducerFetchEffect>? {
        let error: any Error =
            switch failure {
            case .cancelled: CancellationError()
            case .timeout: URLError(.timedOut)
            case .serverError: URLError(.badServerResponse)
            }
        state.fetchFailed(error, for: ticket)
        return nil
    }

    func snapshot() -> PagerSnapshot<String> {
        PagerSnapshot(
            visibleIDs: state.items.map(\.id), isLoading: state.isLoading, hasMore: state.hasMore,
            showsError: state.errorMessage != nil)
    }

    static func itemID(for row: PageRow) -> String { row.stringID }
}

/// `QueryTextTicketSearchModel`: recognises its answers by the query text only.
struct QueryTextTicketSearchModelAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh])
    let model: QueryTextTicketSearchModel

    init(source: PageSource) async {
        model = await QueryTextTicketSearchModel(query: "A") { query, page in
            let response = try await source.load(query: query, page: page)
            return QueryTextTicketPage(
                items: response.rows.map { QueryTextTicketItem(id: $0.stringID) }, hasMore: response.hasMore)
        }
    }

    func bottomReached() async { await model.loadMore() }
    func retry() async { await model.retry() }
    func changeQuery(to query: String) async { await model.setQuery(query) }
    func refresh() async { await model.refresh() }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.visibleIDs, isLoading: model.isLoading, hasMore: model.hasMore,
                showsError: model.errorMessage != nil)
        }
    }

    static func itemID(for row: PageRow) -> String { row.stringID }
}

/// `FilteredInboxViewModel`: checks for a stalled cursor only when the request carried one.
struct FilteredInboxViewModelAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .cursors, triggers: [.refresh], stopsOnNoProgress: false,
        detectsCursorCycles: false)
    let model: FilteredInboxViewModel

    init(source: PageSource) async {
        model = await FilteredInboxViewModel(filter: "A") { filter, cursor in
            let response = try await source.load(query: filter, cursor: cursor)
            return InboxPage(
                messages: response.rows.map { InboxMessage(id: $0.stringID) },
                nextCursor: response.nextCursor, hasMore: response.hasMore)
        }
    }

    func bottomReached() async { await model.loadMore() }
    func retry() async { await model.retry() }
    func changeQuery(to query: String) async { await model.setFilter(query) }
    func refresh() async { await model.refresh() }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.visibleIDs, isLoading: model.isLoading, hasMore: model.hasMore,
                showsError: model.errorMessage != nil, hasProtocolError: model.hasProtocolError)
        }
    }

    static func itemID(for row: PageRow) -> String { row.stringID }
}

/// `LegacyFeedController`: a UIKit-era controller (delegate, completions on the main queue)
/// that recognises an answer by its filter text and page number.
struct LegacyFeedControllerAdapter: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities {
        PagerCapabilities(triggers: [.refresh, .appear], loader: .completionHandler)
    }

    let controller: LegacyFeedController

    init(source: PageSource) async {
        let service = LegacyFeedService { filter, page, done in
            source.load(query: filter, page: page) { result in
                done(
                    result.map { response in
                        LegacyFeedPage(
                            posts: response.rows.map { LegacyFeedPost(id: $0.id, title: $0.title) },
                            hasMore: response.hasMore)
                    })
            }
        }
        controller = await LegacyFeedController(filter: "A", service: service)
    }

    func appear() async { await MainActor.run { controller.viewDidLoad() } }
    func bottomReached() async { await MainActor.run { controller.tableViewWillDisplayLastRow() } }
    func changeQuery(to query: String) async {
        await MainActor.run { controller.segmentedControlDidChange(to: query) }
    }
    func refresh() async { await MainActor.run { controller.refreshControlValueChanged() } }
    func retry() async { await MainActor.run { controller.retryButtonTapped() } }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: controller.posts.map(\.id), isLoading: controller.isLoading,
                hasMore: controller.hasMore, showsError: controller.lastError != nil)
        }
    }
}
