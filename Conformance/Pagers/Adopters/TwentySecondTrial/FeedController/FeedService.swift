import Foundation

/// One post in the feed.
struct FeedPost: Hashable, Sendable {
    let id: UUID
    let headline: String
}

/// The topic chips above the feed ("All", "Following", "Design", …).
struct FeedFilter: Hashable, Sendable {
    var topic: String
}

/// One page of `GET /feed?topic=…&page=…` (pages count from 1).
struct Trial22FeedPage: Sendable {
    let posts: [FeedPost]
    let hasMore: Bool
}

/// The feed's network service. Whatever thread its transport answers on, every completion is
/// delivered on the main queue, as the app's URLSession layer always has.
final class FeedService: Sendable {
    typealias TransportCompletion = @Sendable (Result<Trial22FeedPage, any Error>) -> Void
    typealias Transport = @Sendable (
        _ filter: FeedFilter, _ page: Int, _ completion: @escaping TransportCompletion
    ) -> Void

    private let transport: Transport

    /// In the app the transport is a `URLSession` data task decoding `Trial22FeedPage`; tests pass
    /// their own.
    init(transport: @escaping Transport) {
        self.transport = transport
    }

    func fetchPosts(
        filter: FeedFilter,
        page: Int,
        completion: @escaping @MainActor @Sendable (Result<Trial22FeedPage, any Error>) -> Void
    ) {
        transport(filter, page) { result in
            DispatchQueue.main.async {
                completion(result)
            }
        }
    }
}
