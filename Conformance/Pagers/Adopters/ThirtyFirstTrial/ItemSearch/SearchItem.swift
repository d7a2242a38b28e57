import Foundation

/// One row of the search results, as the API returns it.
public struct SearchItem: Identifiable, Hashable, Sendable, Decodable {
    public let id: Int
    public var title: String
    public var likeCount: Int

    public init(id: Int, title: String, likeCount: Int = 0) {
        self.id = id
        self.title = title
        self.likeCount = likeCount
    }
}

/// One page of a keyset-paginated search: the next page is asked for with the last item's ID
/// (`after=<id>`, like Twitter's `max_id`).
public struct SearchPage: Sendable, Decodable {
    public var items: [SearchItem]
    public var hasMore: Bool

    public init(items: [SearchItem], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }
}
