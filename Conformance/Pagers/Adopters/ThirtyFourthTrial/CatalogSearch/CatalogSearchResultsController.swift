import Foundation

/// Drives the search results table. Main-thread confined: call every public method on the
/// main thread; every state change (and `onChange`) happens on the main queue. Network
/// completions are hopped to the main queue with `DispatchQueue.main.async` before they touch state.
public final class CatalogSearchResultsController: @unchecked Sendable {
    public enum State: Equatable {
        case idle
        case loading
        case loaded
        case failed(message: String)
        case exhausted
    }

    // MARK: Public, read by the view controller

    public private(set) var state: State = .idle { didSet { if state != oldValue { notify() } } }
    public private(set) var items: [CatalogSearchResult] = [] { didSet { notify() } }
    public private(set) var query: String
    /// Called on the main queue after every change of `state` or `items`.
    public var onChange: ((CatalogSearchResultsController) -> Void)?

    public var isLoading: Bool { state == .loading }
    public var hasMore: Bool { state != .exhausted }
    public var showsError: Bool { if case .failed = state { return true } else { return false } }

    // MARK: Configuration

    public let pageSize: Int
    /// After a page arrives, keep loading until at least this many rows are visible.
    public let minimumVisibleRows: Int
    /// Stop after this many pages in a row that add no new row while the server says "more".
    public let maxPagesWithoutNewRows: Int

    // MARK: Private

    private let api: CatalogSearchAPI
    /// Offset into the server's result set (rows served so far, duplicates included).
    private var nextOffset = 0
    private var seenIDs = Set<Int>()
    private var requestCounter = 0
    private var inFlightID: Int?
    private var inFlightToken: CatalogSearchCancellable?
    /// Set by pull-to-refresh: the old rows stay on screen until the new first page arrives.
    private var replaceOnNextPage = false
    private var pagesWithoutNewRows = 0

    public init(
        api: CatalogSearchAPI, query: String = "", pageSize: Int = 20,
        minimumVisibleRows: Int = 20, maxPagesWithoutNewRows: Int = 3
    ) {
        self.api = api
        self.query = query
        self.pageSize = pageSize
        self.minimumVisibleRows = minimumVisibleRows
        self.maxPagesWithoutNewRows = maxPagesWithoutNewRows
    }

    // MARK: Triggers (main thread)

    /// The search field's text changed (already debounced by the caller).
    public func setQuery(_ newQuery: String) {
        guard newQuery != query else { return }
        cancelInFlight()
        query = newQuery
        resetList()
        items = []
        state = .idle
        guard !newQuery.isEmpty else { return }
        startLoad()
    }

    /// `tableView(_:willDisplay:forRowAt:)` for the last row (or the footer): may fire many times.
    public func lastRowWillDisplay() {
        switch state {
        case .idle, .loaded:
            guard !query.isEmpty else { return }
            startLoad()
        case .loading, .failed, .exhausted:
            return
        }
    }

    /// The "Try again" button in the error footer.
    public func retry() {
        guard case .failed = state else { return }
        startLoad()
    }

    /// `UIRefreshControl` value changed: reload from the top, keeping the old rows on screen
    /// until the new first page arrives.
    public func refresh() {
        guard !query.isEmpty else { return }
        cancelInFlight()
        resetList()
        replaceOnNextPage = true
        state = .idle
        startLoad()
    }

    // MARK: Loading

    private func resetList() {
        nextOffset = 0
        seenIDs = []
        pagesWithoutNewRows = 0
        replaceOnNextPage = false
    }

    private func cancelInFlight() {
        inFlightID = nil
        inFlightToken?.cancel()
        inFlightToken = nil
    }

    private func startLoad() {
        requestCounter += 1
        let requestID = requestCounter
        inFlightID = requestID
        state = .loading
        let token = api.search(query: query, offset: nextOffset, limit: pageSize) { [weak self] result in
            DispatchQueue.main.async {
                self?.handle(result, requestID: requestID)
            }
        }
        // The completion hops to the main queue, so it cannot have run yet; still, only keep
        // the token if this request is still the live one.
        if inFlightID == requestID { inFlightToken = token }
    }

    private func handle(_ result: Result<CatalogSearchResponse, Error>, requestID: Int) {
        // Stale (query changed, refresh, cancelled) or a completion that ran twice.
        guard requestID == inFlightID else { return }
        inFlightID = nil
        inFlightToken = nil

        switch result {
        case .success(let response):
            var newItems = items
            if replaceOnNextPage {
                newItems = []
                seenIDs = []
                replaceOnNextPage = false
            }
            var added = 0
            for item in response.items where seenIDs.insert(item.id).inserted {
                newItems.append(item)
                added += 1
            }
            items = newItems
            nextOffset += response.items.count
            pagesWithoutNewRows = added == 0 ? pagesWithoutNewRows + 1 : 0

            if !response.hasMore || pagesWithoutNewRows >= maxPagesWithoutNewRows {
                state = .exhausted
                return
            }
            state = .loaded
            if items.count < minimumVisibleRows {
                startLoad()  // fill the screen
            }

        case .failure(let error):
            if isCatalogSearchCancellation(error) {
                // The live request was cancelled by someone else (the system, the session):
                // no error banner, the next trigger asks for the same page again.
                state = (items.isEmpty && !replaceOnNextPage) ? .idle : .loaded
            } else {
                state = .failed(message: String(describing: error))
            }
        }
    }

    private func notify() {
        onChange?(self)
    }
}
