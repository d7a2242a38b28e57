import PagerContracts
import Foundation

// The adapters the outside trial wrote for its pagers, renamed only.

struct CachedCatalogKitService: CachedCatalogService {
    let source: PageSource

    func products(category: String, page: Int) async throws -> CachedCatalogPage {
        let response = try await source.load(query: category, page: page)
        return CachedCatalogPage(
            products: response.rows.map { CachedCatalogProduct(id: $0.id, name: $0.title) }, hasMore: response.hasMore)
    }
}

/// `CachedCatalogModel`: an `@Observable` view model that keeps each category's pages, and
/// resumes a category's earlier visit when the user goes back to it.
struct CachedCatalogModelAdapter: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities { PagerCapabilities(triggers: [.refresh]) }

    let model: CachedCatalogModel

    init(source: PageSource) async {
        model = await CachedCatalogModel(category: "A", service: CachedCatalogKitService(source: source))
    }

    func bottomReached() async { await model.loadMore() }
    func changeQuery(to query: String) async { await model.selectCategory(query) }
    func refresh() async { await model.refresh() }
    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.products.map(\.id), isLoading: model.isLoading,
                hasMore: model.hasMore, showsError: model.showsError)
        }
    }
}

struct HashtagTimelineKitService: HashtagTimelineService {
    let source: PageSource

    func fetchTimeline(
        tag: String, page: Int, perPage: Int,
        completion: @escaping @Sendable (Result<HashtagTimelineResponse, Error>) -> Void
    ) {
        source.load(query: tag, page: page) { result in
            completion(
                result.map { response in
                    HashtagTimelineResponse(
                        posts: response.rows.map { HashtagPost(id: $0.id, text: $0.title) },
                        hasMoreFlag: response.hasMore)
                })
        }
    }
}

/// `HashtagTimelineController`: a UIKit-era controller whose completions hop to the main
/// queue, and which reads the end of the list from a short page.
struct HashtagTimelineControllerAdapter: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities { PagerCapabilities(loader: .completionHandler) }

    let controller: HashtagTimelineController

    init(source: PageSource) async {
        controller = await HashtagTimelineController(tag: "A", service: HashtagTimelineKitService(source: source))
    }

    func bottomReached() async { await controller.loadNextPageIfNeeded() }
    func changeQuery(to query: String) async { await controller.show(tag: query) }
    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: controller.posts.map(\.id), isLoading: controller.isLoading,
                hasMore: !controller.reachedEnd, showsError: controller.showsErrorFooter)
        }
    }
}
