import Foundation
import Observation

public struct StaleCursorItem: Identifiable, Sendable, Equatable {
    public let id: String
    public init(id: String) { self.id = id }
}

public struct StaleCursorPage: Sendable, Equatable {
    public let items: [StaleCursorItem]
    public let nextCursor: String?
    public let hasMore: Bool
    public init(items: [StaleCursorItem], nextCursor: String?, hasMore: Bool) {
        self.items = items
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}

/// Cursor-based search list view model.
@MainActor
@Observable
public final class StaleCursorBeforeGuardPager {
    public typealias Loader = @Sendable (_ query: String, _ cursor: String?) async throws -> StaleCursorPage

    public private(set) var query: String
    public private(set) var items: [StaleCursorItem] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var errorMessage: String?
    public private(set) var isStalled = false
    public private(set) var cursor: String?

    public var visibleIDs: [String] { items.map(\.id) }

    @ObservationIgnored private let loader: Loader
    @ObservationIgnored private var currentGeneration = 0

    public init(query: String = "", loader: @escaping Loader) {
        self.query = query
        self.loader = loader
    }

    public func loadMore() async {
        guard !isLoading, hasMore, !isStalled else { return }
        await load()
    }

    public func retry() async {
        guard errorMessage != nil, !isStalled else { return }
        await loadMore()
    }

    public func setQuery(_ newQuery: String) async {
        currentGeneration += 1
        query = newQuery
        items = []
        cursor = nil
        hasMore = true
        errorMessage = nil
        isStalled = false
        isLoading = false
        await loadMore()
    }

    public func refresh() async {
        await setQuery(query)
    }

    private func load() async {
        let generation = currentGeneration
        let requestedCursor = cursor
        isLoading = true
        errorMessage = nil
        do {
            let page = try await loader(query, requestedCursor)
            handle(page, requestedCursor: requestedCursor, generation: generation)
        } catch {
            guard generation == currentGeneration else { return }
            isLoading = false
            if !(error is CancellationError) {
                errorMessage = "Something went wrong."
            }
        }
    }

    private func handle(_ page: StaleCursorPage, requestedCursor: String?, generation: Int) {
        cursor = page.nextCursor // BUG: written before the generation guard, so a stale answer (older query) moves the current query's cursor
        guard generation == currentGeneration else { return }
        isLoading = false

        if page.hasMore && (page.nextCursor == nil || page.nextCursor == requestedCursor) {
            isStalled = true
            errorMessage = "Paging stopped: the server repeated the cursor."
            return
        }

        let visible = Set(items.map(\.id))
        var added = Set<String>()
        items.append(contentsOf: page.items.filter { !visible.contains($0.id) && added.insert($0.id).inserted })
        hasMore = page.hasMore
    }
}
