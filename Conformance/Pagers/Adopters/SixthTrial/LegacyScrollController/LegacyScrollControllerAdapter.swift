import PagerContracts
import Foundation

/// The legacy API client, answering through `Task { @MainActor in … }`.
final class LSCSourceAPI: LSCArticleAPI, @unchecked Sendable {
    let source: PageSource
    init(source: PageSource) { self.source = source }
    func loadArticles(query: String, page: Int,
                      completion: @escaping @MainActor @Sendable (Result<LSCResponse, Error>) -> Void) {
        source.load(query: query, page: page) { result in
            let mapped = result.map { response in
                LSCResponse(
                    articles: response.rows.map { LSCArticle(id: $0.stringID, headline: $0.title) },
                    hasNextPage: response.hasMore)
            }
            Task { @MainActor in completion(mapped) }
        }
    }
}

struct LegacyScrollControllerAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers, triggers: [.appear, .refresh], loader: .completionHandler,
        stopsOnNoProgress: false)

    let controller: LegacyScrollController

    init(source: PageSource) async {
        controller = await LegacyScrollController(api: LSCSourceAPI(source: source), searchTerm: "A")
    }

    static func itemID(for row: PageRow) -> String { row.stringID }

    func appear() async { await controller.start() }
    func bottomReached() async { await controller.didScrollToBottom() }
    func changeQuery(to query: String) async { await controller.searchTermChanged(to: query) }
    func refresh() async { await controller.pullToRefresh() }
    func retry() async { await controller.retry() }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: controller.articles.map(\.id), isLoading: controller.isFetching,
                hasMore: controller.canLoadMore, showsError: controller.failure != nil)
        }
    }
}
