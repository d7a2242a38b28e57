/// A successful answer to a page request, as the kit's scripted server sends it.
public struct PageResponse: Hashable, Sendable, CustomStringConvertible {
    /// The rows, in the server's order (duplicates included when the timeline says so).
    public let rows: [PageRow]
    /// Whether the server says more pages exist.
    public let hasMore: Bool
    /// For cursor pagination: the cursor of the next page (`nil` when there is none).
    public let nextCursor: String?

    /// Creates a response.
    public init(rows: [PageRow], hasMore: Bool, nextCursor: String? = nil) {
        self.rows = rows
        self.hasMore = hasMore
        self.nextCursor = nextCursor
    }

    public var description: String {
        let ids = RowListText.text(rows, id: { $0.id }, description: \.description)
        let cursor = nextCursor.map { ", next cursor \"\($0)\"" } ?? ""
        return "rows \(ids), hasMore \(hasMore)\(cursor)"
    }
}
