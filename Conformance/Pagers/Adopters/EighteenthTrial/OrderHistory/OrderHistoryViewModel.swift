// Order history screen: "Your orders", with a status filter bar (All / Open / Shipped / Returned)
// and infinite scroll. App code, written the way the app's other list screens are written:
// a @MainActor @Observable view model, async/await networking, page numbers.
import Foundation
import Observation

public struct Order: Identifiable, Hashable, Sendable {
    public let id: Int
    public let title: String
    public let revision: Int

    public init(id: Int, title: String, revision: Int) {
        self.id = id
        self.title = title
        self.revision = revision
    }
}

public struct OrdersPage: Sendable {
    public let orders: [Order]
    public let hasMore: Bool

    public init(orders: [Order], hasMore: Bool) {
        self.orders = orders
        self.hasMore = hasMore
    }
}

/// The network layer (`OrdersAPI` in the app, a stub in previews).
public protocol OrdersLoading: Sendable {
    func fetchOrders(status: String, page: Int) async throws -> OrdersPage
}

public enum OrderHistoryFooter: Equatable, Sendable {
    case hidden
    case spinner
    case retry(message: String)
    case endOfList
}

@MainActor
@Observable
public final class OrderHistoryViewModel {
    // MARK: State the view reads

    public private(set) var orders: [Order] = []
    public private(set) var statusFilter: String
    public private(set) var isLoadingPage = false
    public private(set) var canLoadMore = true
    /// Shown as the list footer ("Couldn't load more orders. Tap to retry.").
    public private(set) var loadError: String?

    public var footer: OrderHistoryFooter {
        if let loadError { return .retry(message: loadError) }
        if isLoadingPage { return .spinner }
        return canLoadMore ? .hidden : .endOfList
    }

    // MARK: Private bookkeeping

    @ObservationIgnored private let api: any OrdersLoading
    @ObservationIgnored private var nextPage = 1
    @ObservationIgnored private var knownOrderIDs: Set<Int> = []
    /// Bumped on every filter switch; a response from an older generation is dropped.
    @ObservationIgnored private var generation = 0

    public init(statusFilter: String = "all", api: any OrdersLoading) {
        self.statusFilter = statusFilter
        self.api = api
    }

    // MARK: Intents

    /// Called by the list's bottom sentinel (`.onAppear` of the last row).
    public func loadNextPage() async {
        // While the retry footer is up, scrolling must not hammer the server: only the
        // footer's button loads again.
        guard !isLoadingPage, canLoadMore, loadError == nil else { return }
        await load(page: nextPage)
    }

    /// The retry button in the footer.
    public func retry() async {
        guard loadError != nil else { return }
        loadError = nil
        guard !isLoadingPage, canLoadMore else { return }
        await load(page: nextPage)
    }

    /// The filter bar. Starts the new filter's first page right away.
    public func selectFilter(_ newFilter: String) async {
        guard newFilter != statusFilter else { return }
        statusFilter = newFilter
        generation += 1

        // Start the new filter from scratch; whatever the old filter still has in
        // flight is dropped by the generation check when it lands.
        orders = []
        knownOrderIDs = []
        nextPage = 1
        canLoadMore = true
        isLoadingPage = false

        await loadNextPage()
    }

    // MARK: Loading

    private func load(page: Int) async {
        let requestGeneration = generation
        let status = statusFilter
        isLoadingPage = true

        do {
            let result = try await api.fetchOrders(status: status, page: page)
            guard requestGeneration == generation else { return }  // filter changed meanwhile
            apply(result, page: page)
        } catch {
            guard requestGeneration == generation else { return }  // filter changed meanwhile
            isLoadingPage = false
            loadError = Self.message(for: error)
        }
    }

    private func apply(_ result: OrdersPage, page: Int) {
        isLoadingPage = false
        // The backend re-sorts orders when one changes status, so a page can repeat an
        // order we already show: keep the first row, skip the repeat.
        for order in result.orders where knownOrderIDs.insert(order.id).inserted {
            orders.append(order)
        }
        nextPage = page + 1
        canLoadMore = result.hasMore
    }

    private static func message(for error: any Error) -> String {
        if error is CancellationError { return "Loading was interrupted. Tap to retry." }
        if let urlError = error as? URLError, urlError.code == .notConnectedToInternet {
            return "You're offline. Tap to retry."
        }
        return "Couldn't load more orders. Tap to retry."
    }
}
