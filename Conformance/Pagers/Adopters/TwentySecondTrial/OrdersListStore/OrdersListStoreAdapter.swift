import PagerContracts
import Foundation
// In the app's test target, also: @testable import <the app module>

/// Runs the `OrdersListStore` actor against the kit's async pager contracts.
///
/// ```swift
/// @Test(arguments: PagerContract.all(for: OrdersListStoreAdapter.self))
/// func ordersListConforms(_ contract: PagerContract) async {
///     await contract.check(OrdersListStoreAdapter.self)
/// }
/// ```
struct OrdersListStoreAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers,
        triggers: [.refresh],
        loader: .asyncAwait,
        // The store chains nothing: after a page that adds nothing it waits for the next
        // appearance of the last row.
        stopsOnNoProgress: false)

    let store: OrdersListStore

    init(source: PageSource) async {
        store = OrdersListStore(filter: OrderFilter(status: "A"), api: KitOrdersAPI(source: source))
    }

    func bottomReached() async {
        await store.loadNextPage()
    }

    func changeQuery(to query: String) async {
        await store.applyFilter(OrderFilter(status: query))
    }

    func refresh() async {
        await store.refresh()
    }

    func retry() async {
        await store.retry()
    }

    /// Read from the actor itself, not from `stateUpdates` (a mirror can be a step behind).
    func snapshot() async -> PagerSnapshot<Int> {
        let state = await store.state
        return PagerSnapshot(
            visibleIDs: state.orders.map(\.id),
            isLoading: state.isLoading,
            hasMore: state.hasMore,
            showsError: state.errorMessage != nil)
    }
}

/// The orders endpoint, served by the kit's page source. The real API sends `totalPages`
/// rather than `hasMore`: a page that says more counts one page beyond itself.
struct KitOrdersAPI: OrdersAPI {
    let source: PageSource

    func orders(status: String, page: Int) async throws -> Trial22OrdersPage {
        let response = try await source.load(query: status, page: page)
        return Trial22OrdersPage(
            orders: response.rows.map { Trial22Order(id: $0.id, reference: $0.title) },
            page: page,
            totalPages: response.hasMore ? page + 1 : page)
    }
}
