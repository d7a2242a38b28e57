import Foundation
import PagerContracts

/// Async-level adapter for a completion-handler view model: the service's fetch is the kit's
/// `PageSource.load(query:page:onMainActor:)`, called back on the main actor. Compiled in the same
/// target as the feed (in an app's test target, add `@testable import YourApp`).
///
/// A filter change empties the list and loads nothing by itself: the next bottom trigger (the
/// sentinel of the empty list) asks for page 1. Review IDs are UUIDs (`row.uuid`).
struct ProductReviewsFeedAdapter: AsyncPagerAdapter {
    typealias ItemID = UUID

    static var capabilities: PagerCapabilities {
        PagerCapabilities(
            pagination: .pageNumbers,
            noProgressLimit: 3,
            loader: .completionHandler)
    }

    let feed: ProductReviewsFeed

    init(source: PageSource) async {
        let service = ProductReviewsFeedService(fetchReviews: { filter, page, completion in
            source.load(query: filter, page: page, onMainActor: { result in
                completion(result.map { response in
                    ProductReviewsFeedPage(
                        reviews: response.rows.map { ProductReviewsFeedReview(id: $0.uuid, headline: $0.title) },
                        isLastPage: !response.hasMore)
                })
            })
        })
        feed = await ProductReviewsFeed(filter: "A", noProgressLimit: 3, service: service)
    }

    static func itemID(for row: PageRow) -> UUID {
        row.uuid
    }

    func bottomReached() async {
        await feed.loadMore()
    }

    func retry() async {
        await feed.retry()
    }

    func changeQuery(to query: String) async {
        await feed.selectFilter(query)
    }

    func snapshot() async -> PagerSnapshot<UUID> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: feed.reviews.map(\.id),
                isLoading: feed.isLoading,
                hasMore: feed.hasMore,  // a no-progress stall shows as the end of the list
                showsError: feed.errorMessage != nil)
        }
    }
}
