// From an outside trial (round seven): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only. Its bug (by its
// author's choice): a `defer { isLoading = false }` in the load task ends the new query's loading state when the cancelled old load returns (P4, P5, P8).

import Foundation
import Observation

// Round 7, pager 3: a search view model whose in-flight load is a stored `Task`, cancelled when
// the query changes. Intended: BUGGY (one bug, on purpose).
//
// THE BUG (written down before any run): the load task resets the spinner in a `defer`.
// After a query change, the OLD task was cancelled, but it is still suspended in the network
// call; when its late answer (page, failure or CancellationError) finally comes back, the
// `guard !Task.isCancelled` drops the data correctly, but the `defer { isLoading = false }`
// still runs and clears the NEW query's loading flag while the new query's page is in flight.
// The footer spinner disappears, and the next scroll starts a duplicate request.
// Expected contract: P4 late stale response (loading changes after a stale answer); the same
// defer also runs for a stale failure / cancellation, so P5 and P8 may fail too.

public struct TaskSearchProduct: Sendable, Identifiable, Hashable {
    public let id: Int
    public var title: String
    public init(id: Int, title: String) { self.id = id; self.title = title }
}

public struct TaskSearchPage: Sendable {
    public var products: [TaskSearchProduct]
    public var hasNextPage: Bool
    public init(products: [TaskSearchProduct], hasNextPage: Bool) { self.products = products; self.hasNextPage = hasNextPage }
}

public typealias TaskSearchService = @Sendable (_ query: String, _ page: Int) async throws -> TaskSearchPage

@MainActor
@Observable
public final class TaskSearchViewModel {
    public private(set) var products: [TaskSearchProduct] = []
    public private(set) var isLoading = false
    public private(set) var canLoadMore = true
    public private(set) var errorMessage: String?
    public private(set) var query: String

    private var nextPage = 1
    private var seenIDs: Set<Int> = []
    private var loadTask: Task<Void, Never>?
    private let service: TaskSearchService

    public init(query: String, service: @escaping TaskSearchService) {
        self.query = query
        self.service = service
    }

    /// `.onChange(of: searchText)`: cancel what is loading and load page 1 of the new query.
    public func queryChanged(to newQuery: String) async {
        guard newQuery != query else { return }
        loadTask?.cancel()
        loadTask = nil
        query = newQuery
        products = []
        seenIDs = []
        nextPage = 1
        canLoadMore = true
        errorMessage = nil
        isLoading = false
        await loadMore()
    }

    /// The last row's `.onAppear`, and the error footer's "Try again".
    public func loadMore() async {
        guard !isLoading, canLoadMore else { return }
        isLoading = true
        errorMessage = nil
        let query = self.query
        let page = nextPage
        let task = Task {
            defer { isLoading = false }
            do {
                let result = try await service(query, page)
                guard !Task.isCancelled else { return }
                for product in result.products where seenIDs.insert(product.id).inserted {
                    products.append(product)
                }
                nextPage = page + 1
                canLoadMore = result.hasNextPage
            } catch is CancellationError {
                // cancelled by a query change, or by the system: nothing to show
            } catch {
                guard !Task.isCancelled else { return }
                errorMessage = "Something went wrong. Try again."
            }
        }
        loadTask = task
        await task.value
    }
}
