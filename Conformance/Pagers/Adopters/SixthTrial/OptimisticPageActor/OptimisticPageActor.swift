import Foundation

public struct OPAEntry: Equatable, Sendable {
    public let id: UUID
    public let text: String
    public init(id: UUID, text: String) { self.id = id; self.text = text }
}

public struct OPAPage: Sendable {
    public let entries: [OPAEntry]
    public let isLastPage: Bool
    public init(entries: [OPAEntry], isLastPage: Bool) { self.entries = entries; self.isLastPage = isLastPage }
}

public protocol OPAPageService: Sendable {
    func fetchPage(query: String, page: Int) async throws -> OPAPage
}

public struct OPASnapshot: Sendable, Equatable {
    public var query: String
    public var entries: [OPAEntry]
    public var isLoading: Bool
    public var reachedEnd: Bool
    public var errorDescription: String?
}

/// Thread-safe pager: all state lives in the actor; UI reads `snapshot()`.
public actor OptimisticPageActor {
    private let service: any OPAPageService
    private var query: String
    private var entries: [OPAEntry] = []
    private var nextPage = 1
    private var reachedEnd = false
    private var isLoading = false
    private var lastError: Error?
    /// Bumped on query change and refresh; responses from older epochs are dropped.
    private var epoch = 0
    private var lastRequestReplaced = false

    public init(service: any OPAPageService, query: String = "") {
        self.service = service
        self.query = query
    }

    public func snapshot() -> OPASnapshot {
        OPASnapshot(query: query, entries: entries, isLoading: isLoading,
                    reachedEnd: reachedEnd, errorDescription: lastError.map { String(describing: $0) })
    }

    /// First appearance.
    public func start() async {
        guard entries.isEmpty, !isLoading else { return }
        await loadNextPage(replacing: true)
    }

    /// User scrolled to the bottom.
    public func loadMore() async {
        guard !isLoading, !reachedEnd, lastError == nil else { return }
        await loadNextPage(replacing: false)
    }

    public func retry() async {
        guard lastError != nil, !isLoading else { return }
        await loadNextPage(replacing: lastRequestReplaced)
    }

    public func refresh() async {
        epoch += 1
        nextPage = 1
        isLoading = false
        lastError = nil
        await loadNextPage(replacing: true)
    }

    public func setQuery(_ newQuery: String) async {
        guard newQuery != query else { return }
        query = newQuery
        epoch += 1
        entries = []
        nextPage = 1
        reachedEnd = false
        isLoading = false
        lastError = nil
        await loadNextPage(replacing: true)
    }

    private func loadNextPage(replacing: Bool) async {
        isLoading = true
        lastError = nil
        lastRequestReplaced = replacing
        let myEpoch = epoch
        let page = nextPage
        nextPage += 1 // optimistic: assume this page will arrive
        let query = self.query
        do {
            let result = try await service.fetchPage(query: query, page: page)
            guard myEpoch == epoch else { return } // stale: query changed or refreshed meanwhile
            var list = replacing ? [] : entries
            var ids = Set(list.map(\.id))
            for entry in result.entries where ids.insert(entry.id).inserted {
                list.append(entry)
            }
            entries = list
            reachedEnd = result.isLastPage || result.entries.isEmpty
            isLoading = false
        } catch {
            guard myEpoch == epoch else { return }
            lastError = error
            isLoading = false
        }
    }
}
