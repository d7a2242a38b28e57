import Foundation
import Observation

public struct DSItem: Identifiable, Equatable, Sendable {
    public let id: String
    public let name: String
    public init(id: String, name: String) { self.id = id; self.name = name }
}

public struct DSPage: Sendable {
    public let items: [DSItem]
    public let nextCursor: String?
    public init(items: [DSItem], nextCursor: String?) { self.items = items; self.nextCursor = nextCursor }
}

public protocol DSSearchClient: Sendable {
    func search(query: String, cursor: String?) async throws -> DSPage
}

@MainActor
@Observable
public final class ClockDebouncedSearchModel {
    public static let debounce: Duration = .milliseconds(300)

    public var searchText: String = "" { didSet { if searchText != oldValue { scheduleSearch() } } }
    public private(set) var query: String = ""
    public private(set) var items: [DSItem] = []
    public private(set) var isLoading = false
    public private(set) var isRefreshing = false
    public private(set) var error: Error?
    public private(set) var hasMore = true

    @ObservationIgnored private let client: any DSSearchClient
    @ObservationIgnored private let clock: any Clock<Duration>
    /// Exposed read-only so views/tests can await the pending search or page load.
    @ObservationIgnored public private(set) var debounceTask: Task<Void, Never>?
    @ObservationIgnored public private(set) var loadTask: Task<Void, Never>?
    @ObservationIgnored private var nextCursor: String?
    @ObservationIgnored private var seenCursors: Set<String> = []
    @ObservationIgnored private var failedRequest: (cursor: String?, isRefresh: Bool)?
    /// Bumped whenever the list is reset; responses carrying an older generation are dropped.
    @ObservationIgnored private var generation = 0

    public init(client: any DSSearchClient, clock: any Clock<Duration> = ContinuousClock(),
                initialQuery: String = "") {
        self.client = client
        self.clock = clock
        self.searchText = initialQuery
        self.query = initialQuery
    }

    public func onAppear() {
        guard items.isEmpty, !isLoading else { return }
        startLoad(cursor: nil, isRefresh: false)
    }

    public func reachedBottom() {
        guard !isLoading, hasMore, error == nil else { return }
        startLoad(cursor: nextCursor, isRefresh: false)
    }

    public func refresh() {
        debounceTask?.cancel()
        startLoad(cursor: nil, isRefresh: true)
    }

    public func retry() {
        guard let failed = failedRequest, !isLoading else { return }
        startLoad(cursor: failed.cursor, isRefresh: failed.isRefresh)
    }

    private func scheduleSearch() {
        debounceTask?.cancel()
        let clock = self.clock
        debounceTask = Task { [weak self] in
            do { try await clock.sleep(for: Self.debounce) } catch { return }
            guard !Task.isCancelled else { return }
            self?.applyQuery()
        }
    }

    private func applyQuery() {
        guard searchText != query else { return }
        query = searchText
        generation += 1
        loadTask?.cancel()
        items = []
        nextCursor = nil
        seenCursors = []
        hasMore = true
        error = nil
        failedRequest = nil
        isRefreshing = false
        startLoad(cursor: nil, isRefresh: false)
    }

    private func startLoad(cursor: String?, isRefresh: Bool) {
        loadTask?.cancel()
        generation += 1
        let myGeneration = generation
        let query = self.query
        let client = self.client
        isLoading = true
        isRefreshing = isRefresh
        error = nil
        failedRequest = nil
        loadTask = Task { [weak self] in
            let result: Result<DSPage, Error>
            do { result = .success(try await client.search(query: query, cursor: cursor)) }
            catch { result = .failure(error) }
            guard let self, !Task.isCancelled, myGeneration == self.generation else { return }
            self.finish(result, cursor: cursor, isRefresh: isRefresh)
        }
    }

    private func finish(_ result: Result<DSPage, Error>, cursor: String?, isRefresh: Bool) {
        isLoading = false
        isRefreshing = false
        loadTask = nil
        switch result {
        case let .success(page):
            if cursor == nil { items = []; seenCursors = [] }
            var ids = Set(items.map(\.id))
            for item in page.items where ids.insert(item.id).inserted {
                items.append(item)
            }
            if let next = page.nextCursor, next != cursor, seenCursors.insert(next).inserted {
                nextCursor = next
                hasMore = true
            } else {
                hasMore = false // end of list, or the server did not advance the cursor
            }
        case let .failure(err):
            error = err
            failedRequest = (cursor, isRefresh)
        }
    }
}
