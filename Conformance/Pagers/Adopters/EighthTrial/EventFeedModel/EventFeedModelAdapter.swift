import PagerContracts

struct EventFeedModelAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh, .appear], stopsOnNoProgress: false)
    let model: EventFeedModel

    init(source: PageSource) async {
        model = await EventFeedModel(query: "A") { query, page in
            let response = try await source.load(query: query, page: page)
            return R8NumberedPage(
                items: response.rows.map { R8FeedItem(id: $0.id, title: $0.title) }, hasMore: response.hasMore)
        }
    }
    func appear() async { await model.sendAndWait(.appear) }
    func bottomReached() async { await model.sendAndWait(.reachedBottom) }
    func changeQuery(to query: String) async { await model.sendAndWait(.filter(query)) }
    func refresh() async { await model.sendAndWait(.refresh) }
    func retry() async { await model.sendAndWait(.retry) }
    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.items.map(\.id), isLoading: model.isLoading, hasMore: model.hasMore,
                showsError: model.errorMessage != nil)
        }
    }
}
