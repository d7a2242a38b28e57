import Foundation
import PagerContracts

// Adapters for the pagers written by an author who had not read the kit (their code is in the
// files beside this one, unchanged). Each maps the kit's calls onto the pager's own API, the
// way its app calls it, at the pager's own default settings.

/// `FillScreenFeedModel` at its default fill target (2.5 pages of 20): every bottom trigger
/// keeps loading until 50 items are visible; the kit answers the follow-ups.
struct FillScreenFeedModelAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh], stopsOnNoProgress: false)
    let model: FillScreenFeedModel

    init(source: PageSource) async {
        model = await FillScreenFeedModel(query: "A") { query, page in
            let response = try await source.load(query: query, page: page)
            return FillScreenFeedPage(
                items: response.rows.map { FillScreenFeedItem(id: $0.stringID) },
                hasMore: response.hasMore)
        }
    }

    func bottomReached() async { await model.loadMore() }
    func retry() async { await model.retry() }
    func changeQuery(to query: String) async { await model.search(query) }
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

/// `DebouncedSearchModel`: every trigger runs through an intermediate task; a second trigger
/// joins the running load through one. The query is set with `setQuery` (the debounced
/// `searchTextChanged` would wait on the injected sleep, which the kit never lets pass).
struct DebouncedSearchModelAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh], stopsOnNoProgress: false)
    let model: DebouncedSearchModel

    init(source: PageSource) async {
        model = await DebouncedSearchModel(
            query: "A", sleep: { _ in },
            loader: { query, page in
                let response = try await source.load(query: query, page: page)
                return DebouncedSearchResponse(
                    results: response.rows.map { DebouncedSearchResult(id: $0.stringID) },
                    hasMore: response.hasMore)
            })
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

/// `AppearFeedModel`: a cursor feed whose first page comes only from `onAppear()`.
struct AppearFeedModelAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .cursors, triggers: [.refresh, .appear], stopsOnNoProgress: false,
        detectsCursorCycles: false)
    let model: AppearFeedModel

    init(source: PageSource) async {
        model = await AppearFeedModel(query: "A") { query, cursor in
            let response = try await source.load(query: query, cursor: cursor)
            return AppearFeedChunk(
                posts: response.rows.map { AppearFeedPost(id: $0.stringID) },
                nextCursor: response.nextCursor, hasMore: response.hasMore)
        }
    }

    func appear() async { await model.onAppear() }
    func bottomReached() async { await model.loadMore() }
    func retry() async { await model.retry() }
    func changeQuery(to query: String) async { await model.changeQuery(query) }
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

/// `SerialQueryPager`: an actor whose requests form a serial queue; a query change waits for
/// the old request to finish before it loads page 1.
struct SerialQueryPagerAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh], stopsOnNoProgress: false)

    struct KitLoading: SerialQueryLoading {
        let source: PageSource

        func page(_ number: Int, for query: String) async throws -> SerialQueryPage {
            let response = try await source.load(query: query, page: number)
            return SerialQueryPage(
                rows: response.rows.map { SerialQueryRow(id: $0.stringID) },
                hasMore: response.hasMore)
        }
    }

    let pager: SerialQueryPager

    init(source: PageSource) async {
        pager = SerialQueryPager(query: "A", loading: KitLoading(source: source))
    }

    func bottomReached() async { await pager.loadMore() }
    func retry() async { await pager.retry() }
    func changeQuery(to query: String) async { await pager.setQuery(query) }
    func refresh() async { await pager.refresh() }

    func snapshot() async -> PagerSnapshot<String> {
        let state = await pager.snapshot()
        return PagerSnapshot(
            visibleIDs: state.visibleIDs, isLoading: state.isLoading, hasMore: state.hasMore,
            showsError: state.errorMessage != nil)
    }

    static func itemID(for row: PageRow) -> String { row.stringID }
}

/// `DirectoryPager`: a cursor list with refresh only (no query change).
struct DirectoryPagerAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .cursors, triggers: [.refresh], changesQuery: false,
        stopsOnNoProgress: false, detectsCursorCycles: false)
    let pager: DirectoryPager

    init(source: PageSource) async {
        pager = await DirectoryPager { cursor in
            let response = try await source.load(query: "A", cursor: cursor)
            return DirectoryListing(
                entries: response.rows.map { DirectoryEntry(id: $0.stringID) },
                nextCursor: response.nextCursor, hasMore: response.hasMore)
        }
    }

    func bottomReached() async { await pager.loadMore() }
    func retry() async { await pager.retry() }
    func changeQuery(to query: String) async throws {
        throw PagerAdapterError.unsupportedTrigger("changeQuery")
    }
    func refresh() async { await pager.refresh() }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: pager.visibleIDs, isLoading: pager.isLoading, hasMore: pager.hasMore,
                showsError: pager.errorMessage != nil, hasProtocolError: pager.isStalled)
        }
    }

    static func itemID(for row: PageRow) -> String { row.stringID }
}
