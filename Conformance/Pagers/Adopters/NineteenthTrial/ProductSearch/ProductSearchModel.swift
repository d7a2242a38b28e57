import Foundation
import Observation

struct SearchProduct: Identifiable, Hashable, Sendable {
    let id: String
    var name: String
}

struct ProductResultsPage: Sendable {
    let products: [SearchProduct]
    let hasMore: Bool
}

/// `GET /search?q=…&page=n`, injected so previews and tests can stub it.
typealias ProductSearchAPI = @Sendable (_ query: String, _ page: Int) async throws -> ProductResultsPage

/// The shop's search screen. Typing a new query (or pulling to refresh) keeps the results
/// already on screen, dimmed, until the new query's first page arrives, and then replaces them:
/// the list never flashes empty between two searches (the App Store and Mail behave this way).
@MainActor
@Observable
final class ProductSearchModel {
    private(set) var query: String
    /// What the list shows: the current query's results, or the previous ones (dimmed) while
    /// the current query's first page is on its way.
    private(set) var products: [SearchProduct] = []
    private(set) var showsPreviousResults = false
    private(set) var isLoading = false
    private(set) var hasMore = true
    private(set) var errorMessage: String?

    @ObservationIgnored private let api: ProductSearchAPI
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var nextPage = 1
    @ObservationIgnored private var shownIDs: Set<String> = []
    @ObservationIgnored private var loadTask: Task<Void, Never>?

    init(query: String, api: @escaping ProductSearchAPI) {
        self.query = query
        self.api = api
    }

    // MARK: Triggers

    /// The search field's text after its debounce. Starts the new query's first page at once.
    func search(_ text: String) async {
        guard text != query else { return }
        query = text
        await restart()
    }

    /// `.refreshable`: the same query from page 1, a new generation.
    func refresh() async {
        await restart()
    }

    /// The last rows appeared.
    func loadNextPage() async {
        guard loadTask == nil, hasMore, errorMessage == nil else { return }
        await startLoad()
    }

    /// The error row's Retry button.
    func retry() async {
        guard loadTask == nil, errorMessage != nil else { return }
        errorMessage = nil
        await startLoad()
    }

    // MARK: Loading

    private func restart() async {
        generation += 1
        loadTask?.cancel()
        loadTask = nil
        nextPage = 1
        hasMore = true
        errorMessage = nil
        shownIDs = []
        // Keep what is on screen until page 1 replaces it.
        showsPreviousResults = !products.isEmpty
        await startLoad()
    }

    private func startLoad() async {
        let requestGeneration = generation
        let page = nextPage
        let text = query
        isLoading = true
        let task = Task {
            do {
                let result = try await api(text, page)
                receive(result, page: page, generation: requestGeneration)
            } catch {
                receiveFailure(error, generation: requestGeneration)
            }
        }
        loadTask = task
        await task.value
    }

    private func receive(_ result: ProductResultsPage, page: Int, generation requestGeneration: Int) {
        guard requestGeneration == generation else { return }  // an earlier query or refresh
        loadTask = nil
        isLoading = false
        if page == 1 {
            products = []
            showsPreviousResults = false
        }
        for product in result.products where shownIDs.insert(product.id).inserted {
            products.append(product)
        }
        nextPage = page + 1
        hasMore = result.hasMore
    }

    private func receiveFailure(_ error: any Error, generation requestGeneration: Int) {
        guard requestGeneration == generation else { return }
        loadTask = nil
        isLoading = false
        // The system cancelled the request: no error row, the next scroll asks again.
        if error is CancellationError { return }
        // What is on screen stays (the previous query's results too, still dimmed).
        errorMessage = "Couldn't load results. Check your connection and try again."
    }
}
