/// A cursor API's request ticket: the query's generation and the cursor requested (`nil` for
/// the first page).
package struct CursorTicket: Hashable, Sendable, CustomStringConvertible {
    /// The query generation the request was issued under.
    package let generation: Int
    /// The cursor the request carries.
    package let cursor: String?

    /// Creates a ticket.
    package init(generation: Int, cursor: String?) {
        self.generation = generation
        self.cursor = cursor
    }

    package var description: String { "gen \(generation) cursor \(cursor ?? "none")" }
}
