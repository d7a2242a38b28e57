import Foundation
import Observation

public struct StalePageNumberItem: Identifiable, Sendable, Equatable {
    public let id: String
    public init(id: String) { self.id = id }
}

public struct StalePageNumberPage: Sendable, Equatable {
    public let items: [StalePageNumberItem]
    public let hasMore: Bool
    public init(items: [StalePageNumberItem], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }
}

/// Page-number search list view model (pages start at 1).
@MainActor
@Observable
public final class StalePageNumberBeforeGuardPager {
    public typealias Loader = @Sendable (_ query: String, _ page: Int) async throws -> StalePageNumberPage

    public private(set) var query: String
    public private(set) var items: [StalePageNumberItem] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var errorMessage: String?
    public private(set) var nextPage = 1

    public var visibleIDs: [String] { items.map(\.id) }

    @ObservationIgnored private let loader: Loader
    @ObservationIgnored private var currentGeneration = 0
    @ObservationIgnored private var ids: Set<String> = []

    public init(query: String = "", loader: @escaping Loader) {
        self.query = query
        self.loader = loader
    }

    public func loadMore() async {
        guard !isLoading, hasMore else { return }
        await load(page: nextPage)
    }

    public func retry() async {
        guard errorMessage != nil else { return }
        await loadMore()
    }

    public func setQuery(_ newQuery: String) async {
        currentGeneration += 1
        query = newQuery
        items = []
        ids = []
        nextPage = 1
        hasMore = true
        errorMessage = nil
        isLoading = false
        await loadMore()
    }

    public func refresh() async {
        await setQuery(query)
    }

    private func load(page: Int) async {
        let generation = currentGeneration
        isLoading = true
        errorMessage = nil
        let result: Result<StalePageNumberPage, any Error>
        do {
            result = .success(try await loader(query, page))
        } catch {
            result = .failure(error)
        }

        switch result {
        case .success(let response):
            nextPage = page + 1 // BUG: advanced before the generation guard, so an answer for an older query moves the current query's page number
            guard generation == currentGeneration else { return }
            isLoading = false
            for item in response.items where ids.insert(item.id).inserted {
                items.append(item)
            }
            hasMore = response.hasMore
        case .failure(let error):
            guard generation == currentGeneration else { return }
            isLoading = false
            if !(error is CancellationError) {
                errorMessage = "Couldn't load page \(page)."
            }
        }
    }
}
