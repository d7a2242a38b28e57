import Foundation
import Observation

public struct AppearFeedPost: Identifiable, Sendable, Equatable {
    public let id: String
    public let text: String
    public init(id: String, text: String = "") {
        self.id = id
        self.text = text
    }
}

public struct AppearFeedChunk: Sendable, Equatable {
    public let posts: [AppearFeedPost]
    public let nextCursor: String?
    public let hasMore: Bool
    public init(posts: [AppearFeedPost], nextCursor: String?, hasMore: Bool) {
        self.posts = posts
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}

/// Cursor feed whose first page is loaded by `onAppear()`; `loadMore()` (bottom
/// reached) only loads follow-up pages and does nothing before the first page has
/// been requested. The first request of a query has no cursor; each next request
/// uses the cursor of the last accepted answer. An answer that says "more" but
/// hands back the cursor we sent (or none) is a protocol error: automatic loading
/// stops (`isStalled`) until the user retries, refreshes or changes the query.
@MainActor
@Observable
public final class AppearFeedModel {
    public typealias Loader = @Sendable (_ query: String, _ cursor: String?) async throws -> AppearFeedChunk

    public private(set) var query: String
    public private(set) var posts: [AppearFeedPost] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var errorMessage: String?
    public private(set) var isStalled = false
    /// Cursor for the next request (nil = first page).
    public private(set) var cursor: String?
    public private(set) var hasAppeared = false

    public var visibleIDs: [String] { posts.map(\.id) }

    @ObservationIgnored private let loader: Loader
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var firstPageRequested = false
    @ObservationIgnored private var shownIDs: Set<String> = []

    public init(query: String = "", loader: @escaping Loader) {
        self.query = query
        self.loader = loader
    }

    // MARK: View events

    public func onAppear() async {
        guard !hasAppeared else { return } // coming back from a detail screen: keep the list
        hasAppeared = true
        await requestPage()
    }

    public func loadMore() async {
        guard firstPageRequested, !isStalled else { return }
        await requestPage()
    }

    /// Manual retry after an error or a stalled cursor: same cursor again.
    public func retry() async {
        guard firstPageRequested, errorMessage != nil || isStalled else { return }
        isStalled = false
        await requestPage()
    }

    public func changeQuery(_ newQuery: String) async {
        resetList(query: newQuery)
        guard hasAppeared else { return } // onAppear will load it
        await requestPage()
    }

    public func refresh() async {
        resetList(query: query)
        await requestPage()
    }

    // MARK: Private

    private func resetList(query newQuery: String) {
        generation += 1
        query = newQuery
        posts = []
        shownIDs = []
        cursor = nil
        hasMore = true
        errorMessage = nil
        isStalled = false
        isLoading = false
        firstPageRequested = false
    }

    private func requestPage() async {
        guard !isLoading, hasMore, !isStalled else { return }
        let ticket = generation
        let sentCursor = cursor
        let sentQuery = query
        firstPageRequested = true
        isLoading = true
        errorMessage = nil

        let chunk: AppearFeedChunk
        do {
            chunk = try await loader(sentQuery, sentCursor)
        } catch {
            guard ticket == generation else { return }
            isLoading = false
            if !(error is CancellationError) {
                errorMessage = "Couldn't load the feed."
            }
            return
        }

        guard ticket == generation else { return }
        isLoading = false

        if chunk.hasMore && (chunk.nextCursor == nil || chunk.nextCursor == sentCursor) {
            isStalled = true
            errorMessage = "The server returned the same position again; stopped loading."
            return
        }

        for post in chunk.posts where shownIDs.insert(post.id).inserted {
            posts.append(post)
        }
        cursor = chunk.nextCursor
        hasMore = chunk.hasMore
    }
}
