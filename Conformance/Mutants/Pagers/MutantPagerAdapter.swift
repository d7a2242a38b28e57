import PagerContracts
import ReferenceImplementations

/// The adapter every page-number mutant shares: the same mapping as the reference adapter,
/// over a ``BuggyPager`` with the mutant's one bug.
protocol MutantPagerAdapter: PagerModelAdapter where Ticket == PageTicket, ItemID == Int {
    static var bug: PagerBug { get }
    var pager: BuggyPager { get set }
}

extension MutantPagerAdapter {
    static var capabilities: PagerCapabilities {
        PagerCapabilities(pagination: .pageNumbers, triggers: [.refresh, .fillScreen])
    }

    mutating func bottomReached() -> PageRequest<PageTicket>? { request(pager.start()) }

    mutating func changeQuery(to query: String) -> PageRequest<PageTicket>? {
        pager.reset()
        return nil
    }

    mutating func refresh() -> PageRequest<PageTicket>? {
        pager.refresh()
        return request(pager.start())
    }

    mutating func fillScreen() -> PageRequest<PageTicket>? {
        request(pager.fill(minimumCount: 9))
    }

    mutating func deliver(_ response: PageResponse, for ticket: PageTicket) -> PageRequest<PageTicket>? {
        guard pager.finish(ticket, rows: response.rows.map(\.id), hasMore: response.hasMore) else {
            return nil
        }
        return request(pager.continueFill())
    }

    mutating func fail(_ failure: PageFailure, for ticket: PageTicket) -> PageRequest<PageTicket>? {
        pager.fail(ticket, isCancellation: failure.isCancellation)
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: pager.ids, isLoading: pager.inFlight != nil, hasMore: pager.hasMore,
            showsError: pager.failed, hasProtocolError: pager.stalled)
    }

    private func request(_ ticket: PageTicket?) -> PageRequest<PageTicket>? {
        ticket.map { PageRequest($0, page: $0.page) }
    }
}
