import Foundation
import Observation

public struct SelfChainingItem: Identifiable, Sendable, Equatable {
    public let id: String
    public init(id: String) { self.id = id }
}

public struct SelfChainingPage: Sendable, Equatable {
    public let items: [SelfChainingItem]
    public let hasMore: Bool
    public init(items: [SelfChainingItem], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }
}

/// Page-number list view model (pages start at 1). If a page brings nothing new
/// (everything was already visible), it fetches the next page by itself so the
/// user does not have to scroll again.
@MainActor
@Observable
public final class SelfChainingPager {
    public typealias Loader = @Sendable (_ query: String, _ page: Int) async throws -> SelfChainingPage

    public private(set) var query: String
    public private(set) var items: [SelfChainingItem] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var errorMessage: String?
    public private(set) var nextPage = 1

    public var visibleIDs: [String] { items.map(\.id) }

    @ObservationIgnored private let loader: Loader
    @ObservationIgnored private var generation = 0

    public init(query: String = "", loader: @escaping Loader) {
        self.query = query
        self.loader = loader
    }

    public func loadMore() async {
        guard !isLoading, hasMore else { return }
        await fetchNext()
    }

    public func retry() async {
        guard errorMessage != nil else { return }
        await loadMore()
    }

    public func setQuery(_ newQuery: String) async {
        generation += 1
        query = newQuery
        items = []
        nextPage = 1
        hasMore = true
        errorMessage = nil
        isLoading = false
        await loadMore()
    }

    public func refresh() async {
        await setQuery(query)
    }

    private func fetchNext() async {
        let ticket = generation
        let page = nextPage
        isLoading = true
        errorMessage = nil

        let response: SelfChainingPage
        do {
            response = try await loader(query, page)
        } catch {
            guard ticket == generation else { return }
            isLoading = false
            if !(error is CancellationError) {
                errorMessage = "Couldn't load more."
            }
            return
        }

        guard ticket == generation else { return }
        let visible = Set(items.map(\.id))
        var added: [SelfChainingItem] = []
        var addedIDs = Set<String>()
        for item in response.items where !visible.contains(item.id) && addedIDs.insert(item.id).inserted {
            added.append(item)
        }
        items.append(contentsOf: added)
        nextPage = page + 1
        hasMore = response.hasMore
        isLoading = false

        if added.isEmpty && hasMore { await fetchNext() } // BUG: no bound on consecutive no-progress pages — a server that keeps returning already-visible items makes this chain requests forever
    }
}
