import PagerContracts

/// Async-level adapter: the real actor, with the kit's `PageSource` as its fetch. Compiled in the
/// same target as the loader (in an app's test target, add `@testable import YourApp`).
///
/// Every trigger awaits the actor method, which awaits the load's `Task` it started (a query
/// change and a refresh load page 1 by themselves). Tile IDs are strings (`row.stringID`).
struct InfiniteGridLoaderAdapter: AsyncPagerAdapter {
    typealias ItemID = String

    static var capabilities: PagerCapabilities {
        PagerCapabilities(
            pagination: .cursors,
            triggers: [.refresh],
            noProgressLimit: 3,
            loader: .asyncAwait)
    }

    let loader: InfiniteGridLoader

    init(source: PageSource) async {
        loader = InfiniteGridLoader(query: "A", noProgressLimit: 3) { query, cursor in
            let response = try await source.load(query: query, cursor: cursor)
            return InfiniteGridLoaderPage(
                tiles: response.rows.map { InfiniteGridLoaderTile(id: $0.stringID, caption: $0.title) },
                nextCursor: response.nextCursor,  // passed on as it came
                hasMore: response.hasMore)
        }
    }

    static func itemID(for row: PageRow) -> String {
        row.stringID
    }

    func bottomReached() async {
        await loader.loadNextPage()
    }

    func retry() async {
        await loader.retry()
    }

    func changeQuery(to query: String) async {
        await loader.search(query)
    }

    func refresh() async {
        await loader.refresh()
    }

    func snapshot() async -> PagerSnapshot<String> {
        let state = await loader.snapshot()
        return PagerSnapshot(
            visibleIDs: state.tiles.map(\.id),
            isLoading: state.isLoading,
            hasMore: state.hasMore && !state.isStalled,  // a no-progress stall shows as the end
            showsError: state.errorMessage != nil,
            hasProtocolError: state.isCursorBroken)
    }
}
