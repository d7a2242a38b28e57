/// A snapshot in the kit's terms: visible rows by the kit's row IDs, plus the reported state.
@usableFromInline
package struct PagerState: Hashable, Sendable, CustomStringConvertible {
    /// The visible items, mapped back to the kit's rows.
    package var visible: [VisibleItem]
    /// Whether a load is shown, or `nil` when the adapter does not report it.
    package var isLoading: Bool?
    /// Whether more pages exist, or `nil` when not reported.
    package var hasMore: Bool?
    /// Whether an error is shown, or `nil` when not reported.
    package var showsError: Bool?
    /// Whether a protocol error stopped loading, or `nil` when not reported.
    package var hasProtocolError: Bool?

    /// Creates a state.
    @usableFromInline
    package init(
        visible: [VisibleItem], isLoading: Bool? = nil, hasMore: Bool? = nil,
        showsError: Bool? = nil, hasProtocolError: Bool? = nil
    ) {
        self.visible = visible
        self.isLoading = isLoading
        self.hasMore = hasMore
        self.showsError = showsError
        self.hasProtocolError = hasProtocolError
    }

    /// The kit's view of an adapter's `snapshot`: each visible ID mapped back to the kit's row
    /// delivered under it (`rows`), the reported state as it is.
    @inlinable
    package init<ItemID: Hashable>(_ snapshot: PagerSnapshot<ItemID>, rows: [ItemID: Int]) {
        self.init(
            visible: snapshot.visibleIDs.map { id in
                rows[id].map(VisibleItem.row) ?? .unrecognized(String(describing: id))
            },
            isLoading: snapshot.isLoading,
            hasMore: snapshot.hasMore,
            showsError: snapshot.showsError,
            hasProtocolError: snapshot.hasProtocolError)
    }

    /// The visible items as a list, `[1, 2, 3]`.
    package var visibleList: String {
        RowListText.text(visible, id: { if case .row(let id) = $0 { id } else { nil } }, description: \.description)
    }

    /// What the user sees differently from `before`, such as `the visible items changed` or
    /// `loading changed from true to false`; a state either side leaves `nil` is not compared.
    package func changes(since before: PagerState) -> [String] {
        var changed: [String] = []
        if visible != before.visible { changed.append("the visible items changed") }
        func compare(_ name: String, _ path: KeyPath<PagerState, Bool?>) {
            if let old = before[keyPath: path], let new = self[keyPath: path], old != new {
                changed.append("\(name) changed from \(old) to \(new)")
            }
        }
        compare("loading", \.isLoading)
        compare("hasMore", \.hasMore)
        compare("the error state", \.showsError)
        compare("the protocol-error state", \.hasProtocolError)
        return changed
    }

    @usableFromInline
    package var description: String {
        var parts = ["visible \(visibleList)"]
        if let isLoading { parts.append("loading \(isLoading)") }
        if let hasMore { parts.append("hasMore \(hasMore)") }
        if let showsError { parts.append("error \(showsError)") }
        if let hasProtocolError { parts.append("protocol error \(hasProtocolError)") }
        return parts.joined(separator: ", ")
    }
}

/// One visible item in the kit's terms.
@usableFromInline
package enum VisibleItem: Hashable, Sendable, CustomStringConvertible {
    /// A row the kit delivered, by its kit ID.
    case row(Int)
    /// An ID the kit never delivered (described as the adapter reported it).
    case unrecognized(String)

    @usableFromInline
    package var description: String {
        switch self {
        case .row(let id): String(id)
        case .unrecognized(let text): "?\(text)"
        }
    }
}
