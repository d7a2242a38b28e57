import Foundation
import Observation

public struct FillScreenFeedItem: Identifiable, Sendable, Equatable {
    public let id: String
    public let title: String
    public init(id: String, title: String = "") {
        self.id = id
        self.title = title
    }
}

public struct FillScreenFeedPage: Sendable, Equatable {
    public let items: [FillScreenFeedItem]
    public let hasMore: Bool
    public init(items: [FillScreenFeedItem], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }
}

/// Feed view model. `loadMore()` (bottom of the list reached) always loads the next
/// page and then keeps loading — one page at a time, each committed before the next
/// request — until at least `fillTarget` items are visible, the server has no more
/// pages, a page brings nothing new, or a request fails. Pages are numbered from 1.
@MainActor
@Observable
public final class FillScreenFeedModel {
    public typealias Loader = @Sendable (_ query: String, _ page: Int) async throws -> FillScreenFeedPage

    public private(set) var query: String
    public private(set) var items: [FillScreenFeedItem] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var errorMessage: String?
    /// The page the next request will ask for.
    public private(set) var nextPage = 1

    public var visibleIDs: [String] { items.map(\.id) }

    public let pageSize: Int
    public let fillTarget: Int

    @ObservationIgnored private let loader: Loader
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var visibleIDSet: Set<String> = []

    public init(query: String = "", pageSize: Int = 20, fillTarget: Int? = nil, loader: @escaping Loader) {
        self.query = query
        self.pageSize = pageSize
        self.fillTarget = fillTarget ?? (pageSize * 5) / 2
        self.loader = loader
    }

    // MARK: Triggers

    public func loadMore() async {
        guard !isLoading, hasMore else { return }
        await fill()
    }

    /// Re-requests the page that failed.
    public func retry() async {
        guard errorMessage != nil else { return }
        await loadMore()
    }

    public func search(_ newQuery: String) async {
        reset(query: newQuery)
        await fill()
    }

    public func refresh() async {
        reset(query: query)
        await fill()
    }

    // MARK: Loading

    private func reset(query newQuery: String) {
        generation += 1 // everything in flight for the old query is now stale
        query = newQuery
        items = []
        visibleIDSet = []
        hasMore = true
        nextPage = 1
        errorMessage = nil
        isLoading = false
    }

    private func fill() async {
        let ticket = generation
        isLoading = true
        errorMessage = nil

        repeat {
            let requestedQuery = query
            let requestedPage = nextPage

            let page: FillScreenFeedPage
            do {
                page = try await loader(requestedQuery, requestedPage)
            } catch {
                guard ticket == generation else { return }
                isLoading = false
                if !(error is CancellationError) {
                    errorMessage = "Couldn't load more items. (\(error.localizedDescription))"
                }
                return
            }

            guard ticket == generation else { return }
            let added = commit(page.items)
            nextPage = requestedPage + 1
            hasMore = page.hasMore
            if added == 0 { break } // no progress: wait for the next trigger instead of spinning
        } while hasMore && items.count < fillTarget && !Task.isCancelled

        if ticket == generation {
            isLoading = false
        }
    }

    /// Appends unseen items; returns how many were added.
    private func commit(_ incoming: [FillScreenFeedItem]) -> Int {
        var added = 0
        for item in incoming where visibleIDSet.insert(item.id).inserted {
            items.append(item)
            added += 1
        }
        return added
    }
}
