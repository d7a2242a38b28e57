import PagerContracts
import ReferenceImplementations

/// Drives the reference ``Pager``: page numbers, refresh, fill the screen.
struct SeedPagerAdapter: PagerModelAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers, triggers: [.refresh, .fillScreen])

    var pager = Pager<Int>()

    mutating func bottomReached() -> PageRequest<PageTicket>? { request(pager.start()) }

    mutating func changeQuery(to query: String) -> PageRequest<PageTicket>? {
        pager.reset()
        return nil
    }

    mutating func refresh() -> PageRequest<PageTicket>? {
        pager.reset()
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
        pager.fail(ticket)
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: pager.ids, isLoading: pager.isLoading, hasMore: pager.hasMore,
            showsError: pager.failed, hasProtocolError: pager.stalled)
    }

    private func request(_ ticket: PageTicket?) -> PageRequest<PageTicket>? {
        ticket.map { PageRequest($0, page: $0.page) }
    }
}
