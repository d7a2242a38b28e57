/// A request a pager started: its own ticket (whatever it uses to recognise the request) and
/// the page it asks for.
///
/// The kit hands the ticket back with the response, exactly as a network completion would.
public struct PageRequest<Ticket> {
    /// The pager's own token for this request: the seed's `generation` + `page`, a cursor, a
    /// task handle, or anything else.
    public var ticket: Ticket
    /// The page number or cursor the request asks for.
    public var position: PagePosition

    /// A request for a 1-based page number.
    public init(_ ticket: Ticket, page: Int) {
        self.ticket = ticket
        self.position = .page(page)
    }

    /// A request for a cursor (`nil` for the first page).
    public init(_ ticket: Ticket, cursor: String?) {
        self.ticket = ticket
        self.position = .cursor(cursor)
    }
}
