import PagerContracts
import ReferenceImplementations

/// The adapter every cursor mutant shares, over a ``BuggyCursorPager`` with its one bug.
protocol MutantCursorPagerAdapter: PagerModelAdapter where Ticket == CursorTicket, ItemID == Int {
    static var bug: CursorPagerBug { get }
    var pager: BuggyCursorPager { get set }
}

extension MutantCursorPagerAdapter {
    static var capabilities: PagerCapabilities {
        PagerCapabilities(pagination: .cursors, triggers: [.refresh])
    }

    mutating func bottomReached() -> PageRequest<CursorTicket>? { request(pager.start()) }

    mutating func changeQuery(to query: String) -> PageRequest<CursorTicket>? {
        pager.reset()
        return nil
    }

    mutating func refresh() -> PageRequest<CursorTicket>? {
        pager.reset()
        return request(pager.start())
    }

    mutating func deliver(_ response: PageResponse, for ticket: CursorTicket) -> PageRequest<CursorTicket>? {
        pager.finish(
            ticket, rows: response.rows.map(\.id), hasMore: response.hasMore,
            nextCursor: response.nextCursor)
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: CursorTicket) -> PageRequest<CursorTicket>? {
        pager.fail(ticket)
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: pager.ids, isLoading: pager.inFlight != nil, hasMore: pager.hasMore,
            showsError: pager.failed, hasProtocolError: pager.protocolError)
    }

    private func request(_ ticket: CursorTicket?) -> PageRequest<CursorTicket>? {
        ticket.map { PageRequest($0, cursor: $0.cursor) }
    }
}
