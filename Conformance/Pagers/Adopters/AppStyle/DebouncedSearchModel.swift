import Foundation
import Observation

public struct DebouncedSearchResult: Identifiable, Sendable, Hashable {
    public let id: String
    public let name: String
    public init(id: String, name: String = "") {
        self.id = id
        self.name = name
    }
}

public struct DebouncedSearchResponse: Sendable {
    public let results: [DebouncedSearchResult]
    public let hasMore: Bool
    public init(results: [DebouncedSearchResult], hasMore: Bool) {
        self.results = results
        self.hasMore = hasMore
    }
}

/// Search screen view model. Every trigger goes through an intermediate `Task`
/// (the same shape a debouncer uses); a trigger that arrives while a page is loading
/// joins the running load instead of starting another request.
///
/// Typing goes through `searchTextChanged(_:)`, which waits `debounce` on the
/// injected `sleep` and applies only the latest text. `setQuery(_:)` applies at once.
@MainActor
@Observable
public final class DebouncedSearchModel {
    public typealias Loader = @Sendable (_ query: String, _ page: Int) async throws -> DebouncedSearchResponse

    public private(set) var query: String
    public private(set) var results: [DebouncedSearchResult] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var lastError: (any Error)?
    public private(set) var nextPage = 1

    public var visibleIDs: [String] { results.map(\.id) }
    public var errorMessage: String? { lastError.map { "Search failed: \($0.localizedDescription)" } }

    @ObservationIgnored private let loader: Loader
    @ObservationIgnored private let sleep: @Sendable (Duration) async throws -> Void
    @ObservationIgnored private let debounce: Duration
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var runningTask: Task<Void, Never>?
    @ObservationIgnored private var runningGeneration = -1
    @ObservationIgnored private var typedTextRevision = 0

    public init(
        query: String = "",
        debounce: Duration = .milliseconds(300),
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        loader: @escaping Loader
    ) {
        self.query = query
        self.debounce = debounce
        self.sleep = sleep
        self.loader = loader
    }

    // MARK: Triggers

    /// Bottom of the list reached (also used for the first page).
    public func loadMore() async {
        let body = Task { await self.loadOrJoin() }
        await body.value
    }

    /// Retry after an error: asks for the same page again.
    public func retry() async {
        guard lastError != nil else { return }
        await loadMore()
    }

    public func setQuery(_ newQuery: String) async {
        generation += 1
        runningTask?.cancel() // the old request's answer would be ignored anyway
        runningTask = nil
        runningGeneration = -1
        query = newQuery
        results = []
        hasMore = true
        nextPage = 1
        lastError = nil
        isLoading = false
        await loadMore()
    }

    public func refresh() async {
        await setQuery(query)
    }

    public func searchTextChanged(_ text: String) async {
        typedTextRevision += 1
        let revision = typedTextRevision
        do {
            try await sleep(debounce)
        } catch {
            return
        }
        guard revision == typedTextRevision, text != query else { return }
        await setQuery(text)
    }

    // MARK: Loading

    private func loadOrJoin() async {
        if let running = runningTask, runningGeneration == generation {
            await running.value
            return
        }
        guard hasMore else { return }

        let ticket = generation
        let requestedQuery = query
        let requestedPage = nextPage
        isLoading = true
        lastError = nil

        let task = Task { await self.fetch(ticket: ticket, query: requestedQuery, page: requestedPage) }
        runningTask = task
        runningGeneration = ticket
        await task.value
    }

    private func fetch(ticket: Int, query requestedQuery: String, page requestedPage: Int) async {
        let outcome: Result<DebouncedSearchResponse, any Error>
        do {
            outcome = .success(try await loader(requestedQuery, requestedPage))
        } catch {
            outcome = .failure(error)
        }

        guard ticket == generation else { return } // answer to an older query: change nothing
        runningTask = nil
        runningGeneration = -1
        isLoading = false

        switch outcome {
        case .success(let response):
            var seen = Set(results.map(\.id))
            results.append(contentsOf: response.results.filter { seen.insert($0.id).inserted })
            hasMore = response.hasMore
            nextPage = requestedPage + 1
        case .failure(let error):
            if !(error is CancellationError) {
                lastError = error
            }
        }
    }
}
