import PagerContracts

extension PageResponse {
    fileprivate var r10FeedPage: R10FeedPage {
        R10FeedPage(items: rows.map { R10FeedItem(id: $0.id, title: $0.title) }, hasMore: hasMore)
    }
}

struct CoalescingFeedAdapter: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities { PagerCapabilities(stopsOnNoProgress: false) }
    let model: CoalescingFeedViewModel

    init(source: PageSource) async {
        let loader = CoalescingPageLoader(fetch: { try await source.load(query: $0, page: $1).r10FeedPage })
        model = await CoalescingFeedViewModel(query: "A", loader: loader)
    }
    func bottomReached() async { await model.loadNextPage() }
    func changeQuery(to query: String) async { await model.search(query) }
    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.items.map(\.id), isLoading: model.isLoading, hasMore: model.hasMore,
                showsError: model.showsError)
        }
    }
}
