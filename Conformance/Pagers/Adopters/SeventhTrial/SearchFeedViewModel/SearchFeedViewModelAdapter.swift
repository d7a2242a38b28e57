import PagerContracts

/// (a) SearchFeedViewModel: @MainActor view model, cursors, pull to refresh.
struct SearchFeedViewModelAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .cursors, triggers: [.refresh],
        stopsOnNoProgress: false, detectsCursorCycles: false)

    let model: SearchFeedViewModel

    init(source: PageSource) async {
        model = await SearchFeedViewModel(query: "A") { query, cursor in
            do {
                let response = try await source.load(query: query, cursor: cursor)
                return R7Page(
                    items: response.rows.map { R7Product(id: $0.id, name: $0.title) },
                    hasMore: response.hasMore, nextCursor: response.nextCursor)
            } catch {
                throw r7NetworkError(for: error)
            }
        }
    }

    func bottomReached() async { await model.loadNextPage() }
    func retry() async { await model.retry() }
    func changeQuery(to query: String) async { await model.search(query) }
    func refresh() async { await model.refresh() }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.items.map(\.id), isLoading: model.isLoading,
                hasMore: model.canLoadMore, showsError: model.error != nil)
        }
    }
}
