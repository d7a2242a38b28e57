import PagerContracts
import Foundation

struct GenericPaginatorAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .cursors,
        stopsOnNoProgress: false,     // it never chains a load by itself
        detectsCursorCycles: false)   // only the same-cursor stall is detected

    let model: ProductSearchScreenModel

    init(source: PageSource) async {
        model = ProductSearchScreenModel(filter: "A") { filter, wireCursor in
            // The kit's page source plays the server, which percent-decodes the query item.
            let response = try await source.load(
                query: filter, cursor: wireCursor.map { $0.removingPercentEncoding ?? $0 })
            return PaginatorPage(
                items: response.rows.map { CatalogProduct(id: $0.id, title: $0.title) },
                nextCursor: response.nextCursor,
                hasMore: response.hasMore)
        }
    }

    func bottomReached() async { await model.bottomReached() }
    func changeQuery(to query: String) async { await model.filterChanged(to: query) }
    func retry() async { await model.retryTapped() }

    func snapshot() async -> PagerSnapshot<Int> {
        let state = await model.currentState()
        return PagerSnapshot(
            visibleIDs: state.items.map(\.id),
            isLoading: state.isLoadingPage,
            hasMore: state.hasMore,
            showsError: state.errorMessage != nil,
            hasProtocolError: state.isStalled)
    }
}
