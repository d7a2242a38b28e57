import PagerContracts
import Foundation
// In the app's test target, also: @testable import <the app module>

/// Runs `FeedController` (completion handlers, main-queue delivery) against the kit's async
/// pager contracts.
///
/// ```swift
/// @Test(arguments: PagerContract.all(for: FeedControllerAdapter.self))
/// func feedControllerConforms(_ contract: PagerContract) async {
///     await contract.check(FeedControllerAdapter.self)
/// }
/// ```
struct FeedControllerAdapter: AsyncPagerAdapter {
    typealias ItemID = UUID

    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers,
        triggers: [.refresh, .appear],
        loader: .completionHandler,
        // The controller chains nothing: after a page that adds nothing it waits for the
        // next willDisplay of the last cell.
        stopsOnNoProgress: false)

    let controller: FeedController

    init(source: PageSource) async {
        // The kit's page source stands in for the URLSession transport; `FeedService` still
        // hops every completion to the main queue, as in the app.
        let service = FeedService { filter, page, completion in
            source.load(query: filter.topic, page: page, completion: { result in
                completion(result.map(Trial22FeedPage.init(kitResponse:)))
            })
        }
        controller = await FeedController(filter: FeedFilter(topic: "A"), service: service)
    }

    static func itemID(for row: PageRow) -> UUID { row.uuid }

    func appear() async {
        await controller.start()
    }

    func bottomReached() async {
        await controller.loadNextPage()
    }

    func changeQuery(to query: String) async {
        await controller.setFilter(FeedFilter(topic: query))
    }

    func refresh() async {
        await controller.refresh()
    }

    func retry() async {
        await controller.retry()
    }

    func snapshot() async -> PagerSnapshot<UUID> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: controller.posts.map(\.id),
                isLoading: controller.isLoading,
                hasMore: controller.hasMorePages,
                showsError: controller.errorMessage != nil)
        }
    }
}

extension Trial22FeedPage {
    /// The kit's rows as the feed's posts, identified by UUID as the app's API does.
    init(kitResponse response: PageResponse) {
        self.init(
            posts: response.rows.map { FeedPost(id: $0.uuid, headline: $0.title) },
            hasMore: response.hasMore)
    }
}
