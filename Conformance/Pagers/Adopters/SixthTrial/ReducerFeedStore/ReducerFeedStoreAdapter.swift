import PagerContracts
import Foundation

/// Async-level adapter (Docs/AsyncSettling.md "The adapter") for the TCA-style store.
/// `send` starts an effect `Task` and returns it; the adapter awaits it, as the docs ask
/// ("Await the work a trigger starts").
struct ReducerFeedStoreAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .cursors, triggers: [.appear, .refresh], stopsOnNoProgress: false)

    let store: ReducerFeedStore

    init(source: PageSource) async {
        let client = FeedClient { query, cursor in
            let response = try await source.load(query: query, cursor: cursor)
            return FeedPage(
                items: response.rows.map { FeedItem(id: $0.stringID, title: $0.title) },
                nextCursor: response.hasMore ? response.nextCursor : nil)
        }
        store = await ReducerFeedStore(client: client, initialQuery: "A")
    }

    static func itemID(for row: PageRow) -> String { row.stringID }

    private func send(_ action: ReducerFeedStore.Action) async {
        let effect = await store.send(action)
        await effect?.value
    }

    func appear() async { await send(.onAppear) }
    func bottomReached() async { await send(.scrolledToBottom) }
    func changeQuery(to query: String) async { await send(.searchChanged(query)) }
    func refresh() async { await send(.pulledToRefresh) }
    func retry() async { await send(.retryTapped) }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            let s = store.state
            return PagerSnapshot(
                visibleIDs: s.items.map(\.id), isLoading: s.isLoading, hasMore: s.hasMore,
                showsError: s.errorMessage != nil)
        }
    }
}
