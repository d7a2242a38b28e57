/// The source document's request ticket: the query's generation and the page number.
///
/// A response may change the list only when its ticket equals the one in flight.
public struct PageTicket: Hashable, Sendable, CustomStringConvertible {
    /// The query generation the request was issued under.
    public let generation: Int
    /// The 1-based page number requested.
    public let page: Int

    /// Creates a ticket.
    public init(generation: Int, page: Int) {
        self.generation = generation
        self.page = page
    }

    public var description: String { "gen \(generation) page \(page)" }
}
