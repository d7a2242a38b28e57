import PagerContracts

/// Async-level adapter: the real store, its reducer and its effects, with the kit's
/// `PageSource` as the client's network. Compiled in the same target as the feature (in an app's
/// test target, add `@testable import YourApp`).
///
/// `send` returns the task of the effects it started; every trigger awaits it, as the kit asks
/// for a store whose `send(_:)` starts an effect and returns.
struct ReducerListFeatureAdapter: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities {
        PagerCapabilities(
            pagination: .pageNumbers,
            noProgressLimit: ReducerListFeature.noProgressLimit,
            loader: .asyncAwait)
    }

    let store: ReducerListFeatureStore

    init(source: PageSource) async {
        let client = ReducerListFeature.Client(fetchPage: { query, page in
            let response = try await source.load(query: query, page: page)
            return ReducerListFeature.Page(
                items: response.rows.map { ReducerListFeature.Item(id: $0.id, title: $0.title) },
                hasMore: response.hasMore)
        })
        store = await ReducerListFeatureStore(client: client)
    }

    func bottomReached() async {
        await store.send(.reachedBottom)?.value
    }

    func retry() async {
        await store.send(.retryTapped)?.value
    }

    /// The query change loads page 1 by itself (and cancels the running page-load effect).
    func changeQuery(to query: String) async {
        await store.send(.queryChanged(query))?.value
    }

    func snapshot() async -> PagerSnapshot<Int> {
        let state = await store.state
        return PagerSnapshot(
            visibleIDs: state.items.map(\.id),
            isLoading: state.isLoading,
            hasMore: state.hasMore && !state.isStalled,  // a no-progress stall shows as the end
            showsError: state.errorMessage != nil)
    }
}
