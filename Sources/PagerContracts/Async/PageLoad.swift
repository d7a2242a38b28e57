/// A load the subject asked the kit's page source for.
public struct PageLoad: Hashable, Sendable, CustomStringConvertible {
    /// The query the subject says it loads (recorded; the kit's pages do not depend on it).
    public let query: String
    /// The page number or cursor.
    public let position: PagePosition

    public var description: String { "\(position) of \"\(query)\"" }
}
