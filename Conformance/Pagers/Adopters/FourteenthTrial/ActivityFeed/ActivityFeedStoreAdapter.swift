import PagerContracts

/// Drives the real `ActivityFeedStore` actor through the kit's page source.
struct ActivityFeedStoreAdapter: AsyncPagerAdapter {
    typealias ItemID = String

    static let capabilities = PagerCapabilities(
        pagination: .cursors,
        triggers: [.refresh],
        noProgressLimit: 3,
        loader: .asyncAwait,
        changesQuery: true,
        stopsOnNoProgress: true,
        detectsCursorCycles: true)

    let store: ActivityFeedStore

    init(source: PageSource) async {
        store = ActivityFeedStore(filter: "A", noProgressLimit: 3) { filter, cursor in
            let response = try await source.load(query: filter, cursor: cursor)
            return ActivityPage(
                items: response.rows.map { FeedActivity(id: $0.stringID, title: $0.title) },
                hasMore: response.hasMore,
                nextCursor: response.nextCursor)
        }
    }

    func bottomReached() async { await store.loadNextPage() }
    func changeQuery(to query: String) async { await store.setFilter(query) }
    func refresh() async { await store.refresh() }
    func retry() async { await store.retry() }

    func snapshot() async -> PagerSnapshot<String> {
        let state = await store.snapshot
        return PagerSnapshot(
            visibleIDs: state.items.map(\.id),
            isLoading: state.isLoading,
            hasMore: state.canLoadMore,  // a no-progress stop is shown as the end of the list
            showsError: state.errorMessage != nil,
            hasProtocolError: state.showsProtocolError)
    }

    static func itemID(for row: PageRow) -> String { row.stringID }
}
