import Foundation

/// One row of a feed, as the app shows it.
public struct R8FeedItem: Identifiable, Equatable, Sendable {
    public let id: Int
    public let title: String
    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

/// A page of a page-numbered endpoint (`GET /items?q=…&page=n`).
public struct R8NumberedPage: Sendable {
    public let items: [R8FeedItem]
    public let hasMore: Bool
    public init(items: [R8FeedItem], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }
}

/// Appends `page` to `items`, dropping IDs already present (server order kept).
/// Returns how many items were actually added.
@discardableResult
func r8AppendUnique(_ page: [R8FeedItem], to items: inout [R8FeedItem]) -> Int {
    var seen = Set(items.map(\.id))
    var added = 0
    for item in page where seen.insert(item.id).inserted {
        items.append(item)
        added += 1
    }
    return added
}

func r8IsCancellation(_ error: any Error) -> Bool {
    if error is CancellationError { return true }
    if let url = error as? URLError, url.code == .cancelled { return true }
    return false
}
