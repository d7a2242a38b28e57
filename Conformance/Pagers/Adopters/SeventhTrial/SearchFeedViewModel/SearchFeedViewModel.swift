import Foundation
import Observation

/// (a) Search screen view model: async/await, cursor pagination.
///
/// Each load runs in a `Task` that is stored so a new search or a refresh can cancel it; every
/// load also carries a `requestID`, and results are applied only if that id is still current
/// (cancellation alone does not stop a response that already arrived). Items are de-duplicated
/// by id when a page is appended, because the feed can shift between pages.
@Observable
@MainActor
public final class SearchFeedViewModel {
    public typealias Loader = @Sendable (_ query: String, _ cursor: String?) async throws -> R7Page<R7Product>

    public private(set) var items: [R7Product] = []
    public private(set) var query: String
    public private(set) var isLoading = false
    public private(set) var isRefreshing = false
    public private(set) var error: (any Error)?
    /// False once the server said there is nothing more, or the cursor stopped moving.
    public private(set) var canLoadMore = true

    @ObservationIgnored private let loader: Loader
    @ObservationIgnored private var loadTask: Task<Void, Never>?
    @ObservationIgnored private var requestID = 0
    /// Cursor of the next page; nil means "first page".
    @ObservationIgnored private var nextCursor: String?
    @ObservationIgnored private var seenIDs = Set<Int>()

    public init(query: String = "", loader: @escaping Loader) {
        self.query = query
        self.loader = loader
    }

    // MARK: View intents

    /// Called by the list's last row `.task {}` / `.onAppear`, and by the "Try again" footer.
    public func loadNextPage() async {
        guard !isLoading, canLoadMore else { return }
        await startLoad(cursor: nextCursor, replacing: false)
    }

    public func retry() async {
        error = nil
        await loadNextPage()
    }

    /// Search field changed (already debounced by the view).
    public func search(_ newQuery: String) async {
        query = newQuery
        cancelCurrentLoad()
        items = []
        seenIDs = []
        nextCursor = nil
        canLoadMore = true
        error = nil
        await startLoad(cursor: nil, replacing: true)
    }

    /// Pull to refresh: keep showing the current items until the first page comes back.
    public func refresh() async {
        cancelCurrentLoad()
        isRefreshing = true
        canLoadMore = true
        error = nil
        await startLoad(cursor: nil, replacing: true)
    }

    // MARK: Loading

    private func cancelCurrentLoad() {
        loadTask?.cancel()
        loadTask = nil
        requestID += 1
        isLoading = false
    }

    private func startLoad(cursor: String?, replacing: Bool) async {
        requestID += 1
        let id = requestID
        let query = self.query
        isLoading = true
        let task = Task { [loader] in
            do {
                let page = try await loader(query, cursor)
                self.apply(page, requestedCursor: cursor, replacing: replacing, requestID: id)
            } catch {
                self.fail(error, requestID: id)
            }
        }
        loadTask = task
        await task.value
    }

    private func apply(_ page: R7Page<R7Product>, requestedCursor: String?, replacing: Bool, requestID id: Int) {
        guard id == requestID else { return }  // an older search or refresh answered late
        loadTask = nil
        isLoading = false
        isRefreshing = false
        error = nil
        if replacing {
            items = []
            seenIDs = []
        }
        for product in page.items where seenIDs.insert(product.id).inserted {
            items.append(product)
        }
        // Defensive: a cursor that does not move would make us load the same page forever.
        let cursorMoved = page.nextCursor != nil && page.nextCursor != requestedCursor
        canLoadMore = page.hasMore && cursorMoved
        nextCursor = page.nextCursor
    }

    private func fail(_ error: any Error, requestID id: Int) {
        guard id == requestID else { return }
        loadTask = nil
        isLoading = false
        isRefreshing = false
        self.error = error
    }
}
