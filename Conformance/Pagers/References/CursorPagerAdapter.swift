import PagerContracts
import ReferenceImplementations

/// Drives the reference ``CursorPager``: cursors, refresh, fill the screen.
struct CursorPagerAdapter: PagerModelAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .cursors, triggers: [.refresh, .fillScreen])

    var pager = CursorPager<Int>()

    mutating func bottomReached() -> PageRequest<CursorTicket>? { request(pager.start()) }

    mutating func changeQuery(to query: String) -> PageRequest<CursorTicket>? {
        pager.reset()
        return nil
    }

    mutating func refresh() -> PageRequest<CursorTicket>? {
        pager.reset()
        return request(pager.start())
    }

    mutating func fillScreen() -> PageRequest<CursorTicket>? {
        request(pager.fill(minimumCount: 9))
    }

    mutating func deliver(_ response: PageResponse, for ticket: CursorTicket) -> PageRequest<CursorTicket>? {
        let accepted = pager.finish(
            ticket, rows: response.rows.map(\.id), hasMore: response.hasMore,
            nextCursor: response.nextCursor)
        return accepted ? request(pager.continueFill()) : nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: CursorTicket) -> PageRequest<CursorTicket>? {
        pager.fail(ticket)
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: pager.ids, isLoading: pager.isLoading, hasMore: pager.hasMore,
            showsError: pager.failed, hasProtocolError: pager.protocolError != nil)
    }

    private func request(_ ticket: CursorTicket?) -> PageRequest<CursorTicket>? {
        ticket.map { PageRequest($0, cursor: $0.cursor) }
    }
}
