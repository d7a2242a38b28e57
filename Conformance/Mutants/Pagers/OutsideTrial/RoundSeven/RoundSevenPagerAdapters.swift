// From an outside trial (round seven): the adapters their author wrote, names changed only.

import Foundation
import PagerContracts

struct TaskSearchViewModelAdapter: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities { PagerCapabilities(stopsOnNoProgress: false) }
    let model: TaskSearchViewModel

    init(source: PageSource) async {
        model = await TaskSearchViewModel(query: "A") { query, page in
            let response = try await source.load(query: query, page: page)
            return TaskSearchPage(products: response.rows.map { TaskSearchProduct(id: $0.id, title: $0.title) },
                                 hasNextPage: response.hasMore)
        }
    }
    func bottomReached() async { await model.loadMore() }
    func retry() async { await model.loadMore() }
    func changeQuery(to query: String) async { await model.queryChanged(to: query) }
    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(visibleIDs: model.products.map(\.id), isLoading: model.isLoading,
                          hasMore: model.canLoadMore, showsError: model.errorMessage != nil)
        }
    }
}

struct PrefetchTagTimelineAdapter: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities {
        PagerCapabilities(pagination: .cursors, stopsOnNoProgress: false, detectsCursorCycles: false)
    }
    let screen: PrefetchTagTimelineScreen

    init(source: PageSource) async {
        screen = await PrefetchTagTimelineScreen(tag: "A") { tag, cursor in
            let response = try await source.load(query: tag, cursor: cursor)
            // The app's API has no hasMore: a next cursor means more.
            return PrefetchPaginator<PrefetchPost, String>.Page(
                items: response.rows.map { PrefetchPost(id: $0.id, body: $0.title) },
                next: response.hasMore ? response.nextCursor : nil)
        }
    }
    /// The bottom of the list: the last row is displayed.
    func bottomReached() async {
        let last = await MainActor.run { screen.paginator.items.count - 1 }
        await screen.lastVisibleRowChanged(to: last)
    }
    func retry() async { await screen.tryAgainTapped() }
    func changeQuery(to query: String) async { await screen.tagSelected(query) }
    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            let p = screen.paginator
            return PagerSnapshot(visibleIDs: p.items.map(\.id), isLoading: p.isLoading,
                                 hasMore: p.hasMore, showsError: p.isFailed)
        }
    }
}
