import PagerContracts

/// The real search model over the kit's page source (async level). SearchProduct IDs are strings.
struct ProductSearchAdapter: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities {
        // A page that adds nothing is not followed by a load of its own: the model waits for the
        // next scroll.
        PagerCapabilities(triggers: [.refresh], stopsOnNoProgress: false)
    }

    let model: ProductSearchModel

    init(source: PageSource) async {
        model = await ProductSearchModel(query: "A") { query, page in
            let response = try await source.load(query: query, page: page)
            return ProductResultsPage(
                products: response.rows.map { SearchProduct(id: $0.stringID, name: $0.title) },
                hasMore: response.hasMore)
        }
    }

    static func itemID(for row: PageRow) -> String { row.stringID }

    func bottomReached() async { await model.loadNextPage() }
    func retry() async { await model.retry() }
    func refresh() async { await model.refresh() }
    func changeQuery(to query: String) async { await model.search(query) }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.products.map(\.id),
                isLoading: model.isLoading,
                hasMore: model.hasMore,
                showsError: model.errorMessage != nil)
        }
    }
}
