// From an outside trial (round eight): the adapters their author wrote, names changed only.
// The bridged feed's is the one that injects an async fetcher at the feed's seam
// (`RoundEightPhotoFetching` over the kit's `source.load`): through its continuation bridge,
// with the legacy client answering from the kit's completion-handler load, every applicable
// contract ended on the watchdog.

import Foundation
import PagerContracts

// MARK: - A. Intent-stream feed

struct RoundEightKitFeedService: RoundEightFeedService {
    let source: PageSource

    func posts(matching query: String, page: Int) async throws -> RoundEightFeedPage {
        let response = try await source.load(query: query, page: page)
        return RoundEightFeedPage(
            posts: response.rows.map { RoundEightPost(id: $0.id, title: $0.title) },
            hasMore: response.hasMore)
    }
}

struct RoundEightIntentFeedAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        triggers: [.appear, .refresh], stopsOnNoProgress: false)

    let feed: RoundEightIntentStreamFeed

    init(source: PageSource) async {
        feed = await RoundEightIntentStreamFeed(service: RoundEightKitFeedService(source: source), initialQuery: "A")
    }

    func appear() async { await feed.send(.appear) }
    func bottomReached() async { await feed.send(.reachedBottom) }
    func retry() async { await feed.send(.retry) }
    func changeQuery(to query: String) async { await feed.send(.search(query)) }
    func refresh() async { await feed.send(.refresh) }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: feed.posts.map(\.id), isLoading: feed.isLoading,
                hasMore: feed.hasMore, showsError: feed.errorMessage != nil)
        }
    }
}

// MARK: - D. Bridged feed, the bridge bypassed

/// Probe 2: the bridged feed with the continuation bridge replaced by an async fake that calls
/// the kit's async `load` directly (the bridge itself is then not under test).
struct RoundEightDirectPhotoFetcher: RoundEightPhotoFetching {
    let source: PageSource
    func photos(query: String, page: Int) async throws -> RoundEightPhotoPage {
        let response = try await source.load(query: query, page: page)
        return RoundEightPhotoPage(
            photos: response.rows.map { RoundEightPhoto(id: $0.id, caption: $0.title) },
            hasMore: response.hasMore)
    }
}

struct RoundEightBridgedFeedDirectAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh], stopsOnNoProgress: false)

    let feed: RoundEightBridgedFeed

    init(source: PageSource) async {
        feed = await RoundEightBridgedFeed(api: RoundEightDirectPhotoFetcher(source: source), query: "A")
    }

    func bottomReached() async { await feed.loadNextPage() }
    func retry() async { await feed.retry() }
    func changeQuery(to query: String) async { await feed.search(query) }
    func refresh() async { await feed.refresh() }
    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: feed.photos.map(\.id), isLoading: feed.isLoading,
                hasMore: feed.hasMore, showsError: feed.errorMessage != nil)
        }
    }
}
