/// A load the subject asked the kit's page source for.
package struct PageLoad: Hashable, Sendable, CustomStringConvertible {
    /// The query the subject says it loads (recorded; the kit's pages do not depend on it).
    package let query: String
    /// The page number or cursor.
    package let position: PagePosition

    package var description: String { "\(position) of \"\(query)\"" }
}
