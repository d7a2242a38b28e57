// Test target: adapts the app's OrderHistoryViewModel to the kit at the async level
// (Docs/AsyncSettling.md, "The adapter").
import PagerContracts

/// The app's network layer, replaced by the kit's page source. The kit's query names
/// ("A", "B", …) are used as status filters unchanged.
struct KitOrdersLoader: OrdersLoading {
    let source: PageSource

    func fetchOrders(status: String, page: Int) async throws -> OrdersPage {
        let response = try await source.load(query: status, page: page)
        return OrdersPage(
            orders: response.rows.map { Order(id: $0.id, title: $0.title, revision: $0.revision) },
            hasMore: response.hasMore)
    }
}

struct OrderHistoryAdapter: AsyncPagerAdapter {
    // Page numbers, async/await, no refresh. The view model never chains a load by itself
    // after a page that added nothing: it waits for the next scroll (Pagers.md, "No
    // no-progress count").
    static let capabilities = PagerCapabilities(stopsOnNoProgress: false)

    let model: OrderHistoryViewModel

    init(source: PageSource) async {
        // The kit's first query is "A": create the screen on it, nothing loaded.
        model = await OrderHistoryViewModel(statusFilter: "A", api: KitOrdersLoader(source: source))
    }

    func bottomReached() async { await model.loadNextPage() }
    func changeQuery(to query: String) async { await model.selectFilter(query) }
    func retry() async { await model.retry() }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.orders.map(\.id),
                isLoading: model.isLoadingPage,
                hasMore: model.canLoadMore,
                showsError: model.loadError != nil)
        }
    }
}
