import Foundation
import Observation

public struct TrapOnRepeatedIDItem: Identifiable, Sendable, Equatable {
    public let id: String
    public var title: String
    public init(id: String, title: String = "") {
        self.id = id
        self.title = title
    }
}

public struct TrapOnRepeatedIDPage: Sendable, Equatable {
    public let items: [TrapOnRepeatedIDItem]
    public let hasMore: Bool
    public init(items: [TrapOnRepeatedIDItem], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }
}

/// Page-number list view model (pages start at 1) that keeps an id → item index
/// next to the ordered rows, for O(1) lookups when a row is tapped or updated.
@MainActor
@Observable
public final class TrapOnRepeatedIDPager {
    public typealias Loader = @Sendable (_ query: String, _ page: Int) async throws -> TrapOnRepeatedIDPage

    public private(set) var query: String
    public private(set) var items: [TrapOnRepeatedIDItem] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var errorMessage: String?
    public private(set) var nextPage = 1

    public var visibleIDs: [String] { items.map(\.id) }

    @ObservationIgnored private let loader: Loader
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var itemsByID: [String: TrapOnRepeatedIDItem] = [:]

    public init(query: String = "", loader: @escaping Loader) {
        self.query = query
        self.loader = loader
    }

    public func item(withID id: String) -> TrapOnRepeatedIDItem? { itemsByID[id] }

    public func loadMore() async {
        guard !isLoading, hasMore else { return }
        await load()
    }

    public func retry() async {
        guard errorMessage != nil else { return }
        await loadMore()
    }

    public func setQuery(_ newQuery: String) async {
        generation += 1
        query = newQuery
        items = []
        itemsByID = [:]
        nextPage = 1
        hasMore = true
        errorMessage = nil
        isLoading = false
        await loadMore()
    }

    public func refresh() async {
        await setQuery(query)
    }

    private func load() async {
        let ticket = generation
        let page = nextPage
        isLoading = true
        errorMessage = nil
        do {
            let response = try await loader(query, page)
            guard ticket == generation else { return }
            merge(response.items)
            nextPage = page + 1
            hasMore = response.hasMore
            isLoading = false
        } catch {
            guard ticket == generation else { return }
            isLoading = false
            if !(error is CancellationError) {
                errorMessage = "Couldn't load page \(page)."
            }
        }
    }

    private func merge(_ incoming: [TrapOnRepeatedIDItem]) {
        let combined = items + incoming
        let index = Dictionary(uniqueKeysWithValues: combined.map { ($0.id, $0) }) // BUG: traps ("Duplicate values for key") when a page repeats an already-visible ID; needs uniquingKeysWith: { first, _ in first }
        var seen = Set<String>()
        items = combined.filter { seen.insert($0.id).inserted }
        itemsByID = index
    }
}
