import Foundation

/// One row of the order history.
struct Trial22Order: Identifiable, Hashable, Sendable {
    let id: Int
    let reference: String
}

/// The status chips above the list ("Open", "Shipped", "Returned", …).
struct OrderFilter: Hashable, Sendable {
    var status: String
}

/// `GET /orders?status=…&page=…` answers with the page it served and how many pages there are.
struct Trial22OrdersPage: Sendable {
    let orders: [Trial22Order]
    let page: Int
    let totalPages: Int
}

protocol OrdersAPI: Sendable {
    func orders(status: String, page: Int) async throws -> Trial22OrdersPage
}

/// Everything the orders screen draws.
struct OrdersListState: Equatable, Sendable {
    var filter: OrderFilter
    var orders: [Trial22Order] = []
    var isLoading = false
    var isRefreshing = false
    var errorMessage: String?
    var hasMore = true

    var showsEmptyState: Bool { orders.isEmpty && !isLoading && errorMessage == nil }
    var showsEndOfList: Bool { !orders.isEmpty && !hasMore }
}

/// The order history: an actor that owns the paging state and publishes every change of
/// `state` to the screen, which renders what it receives.
actor OrdersListStore {
    private(set) var state: OrdersListState {
        didSet { continuation.yield(state) }
    }

    /// The screen's `for await state in store.stateUpdates` loop.
    nonisolated let stateUpdates: AsyncStream<OrdersListState>

    private let continuation: AsyncStream<OrdersListState>.Continuation
    private let api: any OrdersAPI
    private var generation = 0
    private var nextPage = 1
    private var seenOrderIDs: Set<Int> = []
    private var replacesOrdersOnNextPage = false

    init(filter: OrderFilter, api: any OrdersAPI) {
        state = OrdersListState(filter: filter)
        self.api = api
        let (stream, continuation) = AsyncStream.makeStream(
            of: OrdersListState.self, bufferingPolicy: .bufferingNewest(1))
        stateUpdates = stream
        self.continuation = continuation
    }

    deinit {
        continuation.finish()
    }

    // MARK: - Screen events

    /// The last row appeared; also the screen's first load.
    func loadNextPage() async {
        guard !state.isLoading, state.hasMore, state.errorMessage == nil else { return }
        await load(page: nextPage)
    }

    /// "Try again" in the error footer.
    func retry() async {
        state.errorMessage = nil
        await loadNextPage()
    }

    /// Pull to refresh: page 1 again. The orders stay on screen until it arrives.
    func refresh() async {
        generation += 1
        nextPage = 1
        replacesOrdersOnNextPage = true
        state = OrdersListState(filter: state.filter, orders: state.orders, isRefreshing: true)
        await load(page: 1)
    }

    /// A status chip was tapped: the list empties and the first page of that status loads.
    func applyFilter(_ filter: OrderFilter) async {
        guard filter != state.filter else { return }
        generation += 1
        nextPage = 1
        seenOrderIDs.removeAll()
        replacesOrdersOnNextPage = false
        state.filter = filter
        state.orders = []
        state.errorMessage = nil
        state.isLoading = false
        state.isRefreshing = false
        await loadNextPage()
    }

    // MARK: - Loading

    private func load(page: Int) async {
        let ticket = generation
        state.isLoading = true
        do {
            let response = try await api.orders(status: state.filter.status, page: page)
            // The filter changed or the list was refreshed while this page was on its way.
            guard ticket == generation else { return }
            commit(response, page: page)
        } catch {
            guard ticket == generation else { return }
            state.isLoading = false
            state.isRefreshing = false
            if !(error is CancellationError) {
                state.errorMessage = "We couldn't load your orders. Try again."
            }
        }
    }

    private func commit(_ response: Trial22OrdersPage, page: Int) {
        var orders = state.orders
        if replacesOrdersOnNextPage {
            orders = []
            seenOrderIDs.removeAll()
            replacesOrdersOnNextPage = false
        }
        for order in response.orders where seenOrderIDs.insert(order.id).inserted {
            orders.append(order)
        }
        nextPage = page + 1

        var next = state
        next.orders = orders
        next.hasMore = response.page < response.totalPages
        next.isLoading = false
        next.isRefreshing = false
        next.errorMessage = nil
        state = next
    }
}
