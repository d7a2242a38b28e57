import Foundation
import PagerContracts

/// Serves `ArticleListViewModel`'s cursor API from the kit's page source.
///
/// Our API has no `hasMore`: a `nil` cursor is the end of the list. A response that says
/// "more" without a cursor is therefore shown as the end, which the docs count as a stop (P10).
private struct ConformanceArticleService: ArticleFetching {
    let source: PageSource

    func fetch(query: String, cursor: String?) async throws -> ArticlePage {
        let response = try await source.load(query: query, cursor: cursor)
        let articles = response.rows.map { Article(id: $0.stringID, title: $0.title) }
        return (items: articles, nextCursor: response.hasMore ? response.nextCursor : nil)
    }
}

/// Runs the real `ArticleListViewModel` through the kit's P contracts at the async level.
struct ArticleListViewModelAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .cursors,
        triggers: [.refresh],
        noProgressLimit: 3,             // ArticleListViewModel's default `noProgressLimit`
        loader: .asyncAwait,
        changesQuery: true,
        stopsOnNoProgress: true,
        detectsCursorCycles: true)

    /// `Article.id` is the row's string ID.
    static func itemID(for row: PageRow) -> String { row.stringID }

    let model: ArticleListViewModel

    init(source: PageSource) async {
        // The kit's timelines start on query "A".
        model = await ArticleListViewModel(service: ConformanceArticleService(source: source), query: "A")
    }

    func bottomReached() async { await model.loadNextPage() }
    func changeQuery(to query: String) async { await model.search(query) }
    func retry() async { await model.retry() }
    func refresh() async { await model.refresh() }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.articles.map(\.id),
                isLoading: model.isLoading,
                hasMore: model.hasMore,
                showsError: model.errorMessage != nil,
                hasProtocolError: model.stallReason != nil)
        }
    }
}

