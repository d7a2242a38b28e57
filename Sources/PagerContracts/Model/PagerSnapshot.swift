/// What the user sees, as the adapter reports it.
///
/// Only ``visibleIDs`` is required. Leave a state `nil` when your pager does not have it:
/// the kit then skips the checks that need it and says so in the report's notes, rather than
/// guessing.
public struct PagerSnapshot<ItemID: Hashable>: Hashable {
    /// The visible items' IDs, top to bottom.
    public var visibleIDs: [ItemID]
    /// Whether a page load the pager started is shown as in progress (the first page included).
    public var isLoading: Bool?
    /// Whether the pager believes more pages exist.
    public var hasMore: Bool?
    /// Whether an error (with a way to retry) is shown.
    public var showsError: Bool?
    /// Whether a protocol error (a stalled cursor, no progress) stopped automatic loading.
    public var hasProtocolError: Bool?

    /// Creates a snapshot.
    public init(
        visibleIDs: [ItemID],
        isLoading: Bool? = nil,
        hasMore: Bool? = nil,
        showsError: Bool? = nil,
        hasProtocolError: Bool? = nil
    ) {
        self.visibleIDs = visibleIDs
        self.isLoading = isLoading
        self.hasMore = hasMore
        self.showsError = showsError
        self.hasProtocolError = hasProtocolError
    }
}
extension PagerSnapshot: Sendable where ItemID: Sendable {}
