import PagerContracts

/// Drives the real `@MainActor` `SearchResultsModel` through the kit's page source.
struct SearchResultsModelAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers,
        triggers: [.refresh],
        loader: .asyncAwait,
        changesQuery: true,
        stopsOnNoProgress: false)  // never chains a load by itself; waits for the next trigger

    let model: SearchResultsModel

    init(source: PageSource) async {
        model = await SearchResultsModel(query: "A") { query, page in
            let response = try await source.load(query: query, page: page)
            return SearchResultsPage(
                results: response.rows.map { SearchResult(id: $0.id, title: $0.title) },
                hasMore: response.hasMore)
        }
    }

    func bottomReached() async { await model.loadNextPage() }
    func changeQuery(to query: String) async { await model.search(query) }
    func refresh() async { await model.refresh() }
    func retry() async { await model.retry() }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.results.map(\.id),
                isLoading: model.isLoading,
                hasMore: model.canLoadMore,
                showsError: model.errorMessage != nil)
        }
    }
}
