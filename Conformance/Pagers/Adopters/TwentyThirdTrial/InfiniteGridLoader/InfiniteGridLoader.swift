import Foundation

/// One cell of the photo grid.
struct InfiniteGridLoaderTile: Identifiable, Equatable, Sendable {
    let id: String
    var caption: String
}

/// One page as the grid API returns it: an opaque cursor for the next page.
struct InfiniteGridLoaderPage: Sendable {
    var tiles: [InfiniteGridLoaderTile]
    var nextCursor: String?
    var hasMore: Bool
}

/// What the grid view renders.
struct InfiniteGridLoaderState: Equatable, Sendable {
    var query: String
    var tiles: [InfiniteGridLoaderTile]
    var isLoading: Bool
    var isRefreshing: Bool
    var hasMore: Bool
    var errorMessage: String?
    /// The server handed back a cursor we already followed: automatic loading stopped.
    var isCursorBroken: Bool
    /// Several pages in a row added no new tile: automatic loading stopped.
    var isStalled: Bool
}

/// Cursor-paginated grid loader.
///
/// The actor keeps the `Task` handle of the current load. A query change or a refresh cancels
/// that handle and starts the first page. The load calls `Task.checkCancellation()` after every
/// await and treats `CancellationError` as "not an error": no banner. Only the load that is
/// still current may write anything, which is checked by its token, so a cancelled load that
/// comes back (with a page, a failure or a cancellation) changes nothing.
///
/// Rows are de-duplicated by ID within a query. A refresh keeps the old rows visible until its
/// first page arrives, then replaces them; cursors may repeat across refreshes (they encode a
/// position), so everything remembered about cursors belongs to one generation.
actor InfiniteGridLoader {
    typealias Fetch = @Sendable (_ query: String, _ cursor: String?) async throws -> InfiniteGridLoaderPage

    private struct Request: Sendable {
        let token: Int
        let query: String
        let cursor: String?
        let replacesTiles: Bool
    }

    private struct Load {
        let token: Int
        let replacesTiles: Bool
        let task: Task<Void, Never>
    }

    private let fetch: Fetch
    private let noProgressLimit: Int

    private(set) var query: String
    private var tiles: [InfiniteGridLoaderTile] = []
    private var seenIDs: Set<String> = []
    private var nextCursor: String?
    private var hasMore = true
    /// Set by a refresh until its first page is accepted (also after that page failed).
    private var replaceOnNextPage = false
    private var followedCursors: Set<String> = []
    private var pagesWithoutNewTiles = 0
    private var isCursorBroken = false
    private var isStalled = false
    private var errorMessage: String?
    private var current: Load?
    private var lastToken = 0

    init(query: String, noProgressLimit: Int = 3, fetch: @escaping Fetch) {
        self.query = query
        self.noProgressLimit = noProgressLimit
        self.fetch = fetch
    }

    func snapshot() -> InfiniteGridLoaderState {
        InfiniteGridLoaderState(
            query: query,
            tiles: tiles,
            isLoading: current != nil,
            isRefreshing: current?.replacesTiles ?? false,
            hasMore: hasMore,
            errorMessage: errorMessage,
            isCursorBroken: isCursorBroken,
            isStalled: isStalled)
    }

    // MARK: - Triggers

    /// The grid's last row became visible (also the first load). Ignored while a load runs.
    func loadNextPage() async {
        guard current == nil, hasMore, !isCursorBroken, !isStalled else { return }
        errorMessage = nil
        await startLoad(cursor: nextCursor, replacesTiles: replaceOnNextPage)
    }

    /// The banner's retry button: asks again for the position that failed.
    func retry() async {
        await loadNextPage()
    }

    func search(_ newQuery: String) async {
        guard newQuery != query else { return }
        cancelCurrentLoad()
        query = newQuery
        tiles = []
        seenIDs = []
        replaceOnNextPage = false
        resetGeneration()
        await startLoad(cursor: nil, replacesTiles: false)
    }

    /// Pull to refresh: the old tiles stay on screen until the new first page arrives.
    func refresh() async {
        cancelCurrentLoad()
        replaceOnNextPage = true
        resetGeneration()
        await startLoad(cursor: nil, replacesTiles: true)
    }

    // MARK: - Loading

    private func resetGeneration() {
        nextCursor = nil
        hasMore = true
        followedCursors = []
        pagesWithoutNewTiles = 0
        isCursorBroken = false
        isStalled = false
        errorMessage = nil
    }

    private func cancelCurrentLoad() {
        current?.task.cancel()
        current = nil
    }

    private func startLoad(cursor: String?, replacesTiles: Bool) async {
        lastToken += 1
        let request = Request(token: lastToken, query: query, cursor: cursor, replacesTiles: replacesTiles)
        let task = Task { await self.perform(request) }
        current = Load(token: request.token, replacesTiles: replacesTiles, task: task)
        await task.value
    }

    private func isCurrent(_ request: Request) -> Bool {
        current?.token == request.token
    }

    private func perform(_ request: Request) async {
        do {
            let page = try await fetch(request.query, request.cursor)
            try Task.checkCancellation()
            accept(page, for: request)
        } catch is CancellationError {
            // Superseded by a query change or refresh (then it is no longer current), or
            // cancelled by the system. Not an error either way; the position stays, so the next
            // trigger asks for the same cursor again.
            guard isCurrent(request) else { return }
            current = nil
        } catch {
            guard isCurrent(request) else { return }
            current = nil
            errorMessage = "Couldn't load more photos."
        }
    }

    private func accept(_ page: InfiniteGridLoaderPage, for request: Request) {
        guard isCurrent(request) else { return }
        current = nil
        errorMessage = nil
        if request.replacesTiles {
            tiles = []
            seenIDs = []
            replaceOnNextPage = false
        }
        var added = 0
        for tile in page.tiles {
            if seenIDs.insert(tile.id).inserted {
                tiles.append(tile)
                added += 1
            }
        }
        hasMore = page.hasMore
        guard page.hasMore else { return }

        pagesWithoutNewTiles = added == 0 ? pagesWithoutNewTiles + 1 : 0
        if pagesWithoutNewTiles >= noProgressLimit {
            isStalled = true
        }
        // A missing cursor, the requested cursor again, or any cursor already followed in this
        // generation would make automatic loading go round forever.
        guard let next = page.nextCursor, next != request.cursor, !followedCursors.contains(next) else {
            isCursorBroken = true
            return
        }
        if let requested = request.cursor {
            followedCursors.insert(requested)
        }
        followedCursors.insert(next)
        nextCursor = next
    }
}
