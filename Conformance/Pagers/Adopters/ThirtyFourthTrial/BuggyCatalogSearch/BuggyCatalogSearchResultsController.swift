import Dispatch
import Foundation

/// A search-results screen's controller: offset/limit paging over a completion-handler
/// `CatalogSearchAPI`, confined to the main queue (UIKit-era style, no UIKit needed here).
///
/// - Warning: Deliberately buggy, for the test suite. `refresh()` resets the offset and replaces
///   the list with the refreshed first page, but it does not clear the set of IDs already shown
///   (`setQuery(_:)` does). The refreshed first page's rows that were on screen before the pull
///   to refresh are then dropped as duplicates, so the list loses those rows or ends up empty.
public final class BuggyCatalogSearchResultsController: @unchecked Sendable {
    /// The rows on screen, in order, each ID at most once.
    public private(set) var items: [CatalogSearchResult] = []
    /// Whether a request is in flight (drives the footer spinner / refresh control).
    public private(set) var isLoading = false
    /// Whether the server said there are more rows after the last page received.
    public private(set) var hasMore = true
    /// Whether the last request failed with a real error (drives the "Retry" row).
    public private(set) var showsError = false

    private let api: CatalogSearchAPI
    private let pageSize: Int
    private let minimumVisibleRows: Int
    private var query: String

    /// The offset of the next page to ask for (counts the server's rows, duplicates included).
    private var nextOffset = 0
    /// Bumped on every query change and refresh; answers carrying an older value are ignored.
    private var generation = 0
    /// The in-flight request's handle, if any.
    private var inFlight: CatalogSearchCancellable?
    /// IDs already shown, so a row that shifts across pages is not shown twice.
    private var seenIDs = Set<Int>()
    /// Set by `refresh()`: the next page received replaces the rows on screen.
    private var replacesOnNextPage = false
    /// Consecutive pages that added no new row.
    private var pagesWithoutNewRows = 0
    private let maximumPagesWithoutNewRows = 3
    /// How many requests were made, and the number of the one whose answer is awaited.
    private var requestCount = 0
    private var currentRequest: Int?

    /// Creates the controller and starts loading the first page of `query`.
    ///
    /// Call on the main queue.
    /// - Parameters:
    ///   - api: The search endpoint.
    ///   - query: The initial search text.
    ///   - pageSize: The `limit` sent with every request.
    ///   - minimumVisibleRows: How many rows fill the screen; below that, while the server has
    ///     more, the controller loads the next page by itself.
    public init(api: CatalogSearchAPI, query: String, pageSize: Int, minimumVisibleRows: Int) {
        self.api = api
        self.query = query
        self.pageSize = pageSize
        self.minimumVisibleRows = minimumVisibleRows
        loadNextPage()
    }

    /// Switches to a new search: cancels the in-flight request (its late answer is ignored),
    /// clears the list and loads the first page of `query`. Call on the main queue.
    public func setQuery(_ query: String) {
        startNewGeneration()
        self.query = query
        items = []
        seenIDs = []
        nextOffset = 0
        hasMore = true
        replacesOnNextPage = false
        loadNextPage()
    }

    /// Pull to refresh: reloads from the first page, keeping the rows on screen until that page
    /// replaces them. Answers to requests made before the refresh are ignored.
    /// Call on the main queue.
    public func refresh() {
        startNewGeneration()
        nextOffset = 0
        hasMore = true
        replacesOnNextPage = true
        // BUG (deliberate): `seenIDs` is not cleared here.
        loadNextPage()
    }

    /// After an error, asks again for the page that failed. Call on the main queue.
    public func retry() {
        guard showsError, !isLoading else { return }
        loadNextPage()
    }

    /// The table view is about to show its last row: loads the next page unless a load is in
    /// flight, the last load failed, or the list is complete. Safe to call many times.
    /// Call on the main queue.
    public func lastRowWillDisplay() {
        guard !isLoading, !showsError, hasMore else { return }
        loadNextPage()
    }

    // MARK: - Private

    private func startNewGeneration() {
        generation += 1
        let cancelled = inFlight
        inFlight = nil
        isLoading = false
        showsError = false
        pagesWithoutNewRows = 0
        cancelled?.cancel()
    }

    private func loadNextPage() {
        requestCount += 1
        let request = requestCount
        currentRequest = request
        let requestGeneration = generation
        let offset = nextOffset
        isLoading = true
        showsError = false
        let token = api.search(query: query, offset: offset, limit: pageSize) { [weak self] result in
            DispatchQueue.main.async {
                self?.handle(result, generation: requestGeneration, request: request)
            }
        }
        // The completion only hops, so it cannot have run our handler yet: this is still current.
        if requestGeneration == generation {
            inFlight = token
        }
    }

    private func handle(_ result: Result<CatalogSearchResponse, Error>, generation requestGeneration: Int, request: Int) {
        // A completion that runs twice finds its request no longer current.
        guard requestGeneration == generation, isLoading, request == currentRequest else { return }
        currentRequest = nil
        inFlight = nil
        isLoading = false

        switch result {
        case .failure(let error):
            if !isCatalogSearchCancellation(error) {
                showsError = true
            }
        case .success(let response):
            if replacesOnNextPage {
                replacesOnNextPage = false
                items = []
            }
            var newRows: [CatalogSearchResult] = []
            for row in response.items where seenIDs.insert(row.id).inserted {
                newRows.append(row)
            }
            items.append(contentsOf: newRows)
            nextOffset += response.items.count
            hasMore = response.hasMore

            if newRows.isEmpty {
                pagesWithoutNewRows += 1
                if pagesWithoutNewRows >= maximumPagesWithoutNewRows {
                    hasMore = false
                    return
                }
            } else {
                pagesWithoutNewRows = 0
            }

            if hasMore, items.count < minimumVisibleRows {
                loadNextPage()
            }
        }
    }
}
