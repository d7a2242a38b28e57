import PagerContracts

/// Async-level adapter: the real actor, its fetch wired to the kit's cursor page source.
struct ActivityLogStoreAdapter: AsyncPagerAdapter {
    typealias ItemID = String

    // The store never chains a load by itself (it waits for the next trigger after every page)
    // and checks only for a cursor that comes back unchanged, not for longer cycles.
    static let capabilities = PagerCapabilities(
        pagination: .cursors,
        loader: .asyncAwait,
        stopsOnNoProgress: false,
        detectsCursorCycles: false)

    let store: ActivityLogStore

    init(source: PageSource) async {
        store = ActivityLogStore(filter: "A") { filter, cursor in
            let response = try await source.load(query: filter, cursor: cursor)
            return ActivityLogPage(
                entries: response.rows.map { ActivityEntry(id: $0.stringID, summary: $0.title) },
                nextCursor: response.nextCursor,
                hasMore: response.hasMore)
        }
    }

    static func itemID(for row: PageRow) -> String { row.stringID }

    func bottomReached() async {
        await store.loadMore()
    }

    func changeQuery(to query: String) async {
        await store.setFilter(query)
    }

    func retry() async {
        await store.retry()
    }

    func snapshot() async -> PagerSnapshot<String> {
        let state = await store.viewState
        return PagerSnapshot(
            visibleIDs: state.entryIDs,
            isLoading: state.isLoading,
            hasMore: state.hasMore,
            showsError: state.errorMessage != nil,
            hasProtocolError: state.hitCursorStall)
    }
}
