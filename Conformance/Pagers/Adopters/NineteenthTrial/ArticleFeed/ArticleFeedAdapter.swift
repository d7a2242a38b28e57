import PagerContracts

/// The real view model and its actor loader, over the kit's page source (async level).
struct ArticleFeedAdapter: AsyncPagerAdapter {
    /// The view model chains nothing after a page that added nothing: it waits for the next
    /// `loadMore()`.
    static var capabilities: PagerCapabilities {
        PagerCapabilities(stopsOnNoProgress: false)
    }

    let model: ArticleFeedViewModel

    init(source: PageSource) async {
        let loader = ArticlePageLoader { topic, page in
            let response = try await source.load(query: topic, page: page)
            return FeedArticlePage(
                articles: response.rows.map { FeedArticle(id: $0.id, headline: $0.title) },
                hasMore: response.hasMore)
        }
        model = await ArticleFeedViewModel(topic: "A", loader: loader)
    }

    func bottomReached() async { await model.loadMore() }
    func retry() async { await model.retry() }
    func changeQuery(to query: String) async { await model.selectTopic(query) }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.articleIDs,
                isLoading: model.footer == .loading,
                hasMore: model.footer != .end,
                showsError: model.footer == .failed)
        }
    }
}
