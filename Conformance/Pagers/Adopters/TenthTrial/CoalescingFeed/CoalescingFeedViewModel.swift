import Observation

/// One row of a feed, as the app's networking layer decodes it.
public struct R10FeedItem: Identifiable, Hashable, Sendable {
    public let id: Int
    public let title: String
    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

/// One page of results from the backend.
public struct R10FeedPage: Sendable {
    public let items: [R10FeedItem]
    public let hasMore: Bool
    public init(items: [R10FeedItem], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }
}

/// The app's page endpoint: `GET /search?q=…&page=…` (pages are 1-based).
public typealias R10FeedPageLoader = @Sendable (_ query: String, _ page: Int) async throws -> R10FeedPage

extension Array where Element == R10FeedItem {
    /// Appends `page`, skipping IDs already shown (the backend's offset pages shift when rows
    /// are inserted), keeping the server's order.
    mutating func appendUnique(_ page: [R10FeedItem]) {
        var seen = Set(map(\.id))
        for item in page where seen.insert(item.id).inserted {
            append(item)
        }
    }
}

/// (c) The networking side: an actor that coalesces page requests. Anyone asking for a page
/// while one is being fetched (the list view model, a prefetcher, a second `.task`) joins the
/// running request instead of sending another.
public actor CoalescingPageLoader {
    private let fetch: R10FeedPageLoader
    private var inFlight: (id: Int, task: Task<R10FeedPage, any Error>)?
    private var nextRequestID = 0

    public init(fetch: @escaping R10FeedPageLoader) {
        self.fetch = fetch
    }

    public func loadMore(query: String, page: Int) async throws -> R10FeedPage {
        if let inFlight { return try await inFlight.task.value }
        nextRequestID += 1
        let id = nextRequestID
        let fetch = self.fetch
        let task = Task { try await fetch(query, page) }
        inFlight = (id, task)
        defer {
            if inFlight?.id == id { inFlight = nil }
        }
        return try await task.value
    }

    /// The list switched to another query: stop the running request.
    public func cancelAll() {
        // The cancelled task clears `inFlight` itself when it finishes (see `loadMore`).
        inFlight?.task.cancel()
    }
}

/// (c) The list screen on top of the coalescing loader.
@MainActor @Observable
public final class CoalescingFeedViewModel {
    public private(set) var items: [R10FeedItem] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var showsError = false
    public private(set) var query: String

    private let loader: CoalescingPageLoader
    @ObservationIgnored private var nextPage = 1
    @ObservationIgnored private var generation = 0

    public init(query: String, loader: CoalescingPageLoader) {
        self.query = query
        self.loader = loader
    }

    public func loadNextPage() async {
        guard !isLoading, hasMore else { return }
        isLoading = true
        showsError = false
        await performLoad()
    }

    public func search(_ text: String) async {
        generation += 1
        let generation = self.generation
        query = text
        items = []
        nextPage = 1
        hasMore = true
        showsError = false
        isLoading = true  // page 1 of the new query is on its way
        await loader.cancelAll()
        guard generation == self.generation else { return }  // an even newer search took over
        await performLoad()
    }

    private func performLoad() async {
        let generation = self.generation
        let page = nextPage
        let query = self.query
        do {
            let response = try await loader.loadMore(query: query, page: page)
            guard generation == self.generation else { return }
            items.appendUnique(response.items)
            hasMore = response.hasMore
            nextPage += 1
            isLoading = false
        } catch {
            guard generation == self.generation else { return }
            isLoading = false
            showsError = !(error is CancellationError)
        }
    }
}
