import Foundation
import Dispatch

public struct MainQueueCallbackItem: Identifiable, Sendable, Equatable {
    public let id: String
    public let title: String
    public init(id: String, title: String = "") {
        self.id = id
        self.title = title
    }
}

public struct MainQueueCallbackPage: Sendable {
    public let items: [MainQueueCallbackItem]
    public let hasMore: Bool
    public init(items: [MainQueueCallbackItem], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }
}

/// URLSession-style service layer: `completion` may be called on any queue.
public protocol MainQueueCallbackItemService: Sendable {
    func load(
        query: String,
        page: Int,
        completion: @escaping @Sendable (Result<MainQueueCallbackPage, any Error>) -> Void
    )
}

/// Completion-handler pager. The service's completion is hopped onto the main
/// actor before any state is touched; all state is `@MainActor`. Every request
/// carries a ticket (generation); answers for an older ticket are dropped.
@MainActor
public final class MainQueueCallbackPager {
    public private(set) var query: String
    public private(set) var items: [MainQueueCallbackItem] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var errorMessage: String?
    public private(set) var nextPage = 1

    public var visibleIDs: [String] { items.map(\.id) }

    /// Called on the main actor after every state change (the view controller reloads).
    public var onChange: (@MainActor () -> Void)?

    private let service: any MainQueueCallbackItemService
    private var ticket = 0
    private var seenIDs: Set<String> = []

    public init(query: String = "", service: any MainQueueCallbackItemService) {
        self.query = query
        self.service = service
    }

    // MARK: Triggers (callback style)

    /// Bottom reached. `completion` runs once the answer to *this* trigger was handled
    /// (or immediately if the trigger started nothing).
    public func loadNextPage(completion: (@MainActor () -> Void)? = nil) {
        guard !isLoading, hasMore else {
            completion?()
            return
        }
        startRequest(completion: completion)
    }

    public func retry(completion: (@MainActor () -> Void)? = nil) {
        guard errorMessage != nil else {
            completion?()
            return
        }
        loadNextPage(completion: completion)
    }

    public func search(_ newQuery: String, completion: (@MainActor () -> Void)? = nil) {
        ticket += 1
        query = newQuery
        items = []
        seenIDs = []
        hasMore = true
        nextPage = 1
        errorMessage = nil
        isLoading = false
        onChange?()
        startRequest(completion: completion)
    }

    public func refresh(completion: (@MainActor () -> Void)? = nil) {
        search(query, completion: completion)
    }

    // MARK: async wrappers

    public func loadMore() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            loadNextPage { c.resume() }
        }
    }

    public func retry() async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            retry { c.resume() }
        }
    }

    public func search(_ newQuery: String) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            search(newQuery) { c.resume() }
        }
    }

    public func refresh() async {
        await search(query)
    }

    // MARK: Private

    private func startRequest(completion: (@MainActor () -> Void)?) {
        let requestTicket = ticket
        let requestedPage = nextPage
        isLoading = true
        errorMessage = nil
        onChange?()

        service.load(query: query, page: requestedPage) { [weak self] result in
            Task { @MainActor in
                self?.handle(result, ticket: requestTicket, page: requestedPage)
                completion?()
            }
        }
    }

    private func handle(_ result: Result<MainQueueCallbackPage, any Error>, ticket requestTicket: Int, page requestedPage: Int) {
        guard requestTicket == ticket else { return } // stale: a newer search/refresh owns the list
        isLoading = false
        switch result {
        case .success(let page):
            for item in page.items where seenIDs.insert(item.id).inserted {
                items.append(item)
            }
            hasMore = page.hasMore
            nextPage = requestedPage + 1
        case .failure(let error):
            if !(error is CancellationError) {
                errorMessage = "Loading failed: \(error.localizedDescription)"
            }
        }
        onChange?()
    }
}
