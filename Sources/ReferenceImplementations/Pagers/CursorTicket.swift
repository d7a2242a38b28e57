/// A cursor API's request ticket: the query's generation and the cursor requested (`nil` for
/// the first page).
public struct CursorTicket: Hashable, Sendable, CustomStringConvertible {
    /// The query generation the request was issued under.
    public let generation: Int
    /// The cursor the request carries.
    public let cursor: String?

    /// Creates a ticket.
    public init(generation: Int, cursor: String?) {
        self.generation = generation
        self.cursor = cursor
    }

    public var description: String { "gen \(generation) cursor \(cursor ?? "none")" }
}
