// From an outside trial (round six): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation

/// (d) BUGGY: value-type reducer (TCA-like) with effects as requests.
/// THE BUG: pull to refresh resets the list to page 1 but goes through the same
/// `startLoad()` guard as the bottom trigger; when a page is already in flight the guard
/// swallows the refresh's own load, and the in-flight (pre-refresh) page is accepted as
/// if it belonged to the refreshed list (no new generation on refresh).
public struct GuardedRefreshFeedRequest: Hashable, Sendable {
    public let generation: Int
    public let page: Int
}

public struct GuardedRefreshFeedState: Sendable {
    public private(set) var ids: [Int] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var showsError = false
    public private(set) var query: String

    private var seen = Set<Int>()
    private var nextPage = 1
    private var generation = 0
    private var inFlight: GuardedRefreshFeedRequest?

    public enum Action: Sendable {
        case scrolledToBottom
        case queryChanged(String)
        case pulledToRefresh
        case retryTapped
        case pageLoaded(GuardedRefreshFeedRequest, ids: [Int], hasMore: Bool)
        case pageFailed(GuardedRefreshFeedRequest, cancelled: Bool)
    }

    public init(query: String) { self.query = query }

    /// Returns the request to send, if any.
    public mutating func reduce(_ action: Action) -> GuardedRefreshFeedRequest? {
        switch action {
        case .scrolledToBottom, .retryTapped:
            return startLoad()
        case .queryChanged(let newQuery):
            guard newQuery != query else { return nil }
            query = newQuery
            generation += 1
            inFlight = nil
            ids = []; seen = []; nextPage = 1; hasMore = true; isLoading = false; showsError = false
            return startLoad()
        case .pulledToRefresh:
            ids = []; seen = []; nextPage = 1; hasMore = true; showsError = false
            return startLoad()   // BUG: nil while a page is in flight; no new generation
        case .pageLoaded(let request, let newIDs, let more):
            guard request == inFlight else { return nil }
            inFlight = nil
            isLoading = false
            for id in newIDs where seen.insert(id).inserted { ids.append(id) }
            nextPage = request.page + 1
            hasMore = more
            return nil
        case .pageFailed(let request, let cancelled):
            guard request == inFlight else { return nil }
            inFlight = nil
            isLoading = false
            showsError = !cancelled
            return nil
        }
    }

    private mutating func startLoad() -> GuardedRefreshFeedRequest? {
        guard inFlight == nil, hasMore else { return nil }
        let request = GuardedRefreshFeedRequest(generation: generation, page: nextPage)
        inFlight = request
        isLoading = true
        showsError = false
        return request
    }
}
