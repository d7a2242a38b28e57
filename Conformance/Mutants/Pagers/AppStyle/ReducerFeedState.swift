import Foundation

public struct ReducerFeedItem: Sendable, Equatable, Identifiable {
    public let id: String
    public let title: String

    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}

public struct ReducerFeedPage: Sendable {
    public let items: [ReducerFeedItem]
    public let hasMore: Bool

    public init(items: [ReducerFeedItem], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }
}

/// Describes a fetch the store should run; the result is fed back with the same value.
public struct ReducerFetchEffect: Sendable, Hashable {
    public let requestID: Int
    public let query: String
    public let page: Int

    public init(requestID: Int, query: String, page: Int) {
        self.requestID = requestID
        self.query = query
        self.page = page
    }
}

/// Paginated search feed state. Mutated synchronously by the store; every action
/// returns the fetch to start, if any.
public struct ReducerFeedState: Sendable {
    public private(set) var items: [ReducerFeedItem] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var errorMessage: String?
    public private(set) var query: String

    private var nextPage = 1
    private var requestCounter = 0
    private var currentRequest: ReducerFetchEffect?
    private var visibleIDs: Set<String> = []

    public init(query: String = "A") {
        self.query = query
    }

    // MARK: - User actions

    public mutating func scrolledToBottom() -> ReducerFetchEffect? {
        guard !isLoading, hasMore, errorMessage == nil else { return nil }
        return startFetch()
    }

    public mutating func queryChanged(to newQuery: String) -> ReducerFetchEffect? {
        query = newQuery
        resetPagination()
        return startFetch()
    }

    public mutating func retryTapped() -> ReducerFetchEffect? {
        guard errorMessage != nil, !isLoading else { return nil }
        errorMessage = nil
        return startFetch() // nextPage was not advanced, so this is the page that failed
    }

    public mutating func pulledToRefresh() -> ReducerFetchEffect? {
        resetPagination()
        return startFetch()
    }

    // MARK: - Effect results

    public mutating func fetchSucceeded(_ page: ReducerFeedPage, for effect: ReducerFetchEffect) {
        // Stale requests and duplicate deliveries both fail this check.
        guard effect == currentRequest else { return }
        currentRequest = nil
        isLoading = false

        for item in page.items where visibleIDs.insert(item.id).inserted {
            items.append(item)
        }
        nextPage = effect.page + 1
        hasMore = page.hasMore
    }

    public mutating func fetchFailed(_ error: Error, for effect: ReducerFetchEffect) {
        // Cancellation means a newer query/refresh superseded this request (the store
        // cancels the old task when it starts the new one), and the new request owns
        // the loading state, so there is nothing to do here.
        if error is CancellationError || (error as? URLError)?.code == .cancelled { return } // BUG: when the system cancels the current request (app backgrounded, URLSession invalidated), isLoading stays true forever, and scrolledToBottom() and retryTapped() then do nothing.

        guard effect == currentRequest else { return }
        currentRequest = nil
        isLoading = false
        errorMessage = error.localizedDescription
    }

    // MARK: - Private

    private mutating func startFetch() -> ReducerFetchEffect {
        requestCounter += 1
        let effect = ReducerFetchEffect(requestID: requestCounter, query: query, page: nextPage)
        currentRequest = effect
        isLoading = true
        return effect
    }

    private mutating func resetPagination() {
        items = []
        visibleIDs = []
        nextPage = 1
        hasMore = true
        errorMessage = nil
        isLoading = false
        currentRequest = nil
    }
}
