import ConformanceTesting
import ReferenceImplementations

/// A broken fixture: appends every row, duplicates included (violates P2).
struct PagerWithoutDeduplication: PagerModelAdapter {
    var ids: [Int] = []
    var inFlight: PageTicket?
    var nextPage = 1

    mutating func bottomReached() -> PageRequest<PageTicket>? {
        guard inFlight == nil else { return nil }
        let ticket = PageTicket(generation: 0, page: nextPage)
        inFlight = ticket
        return PageRequest(ticket, page: ticket.page)
    }

    mutating func changeQuery(to query: String) -> PageRequest<PageTicket>? { nil }

    mutating func deliver(_ response: PageResponse, for ticket: PageTicket) -> PageRequest<PageTicket>? {
        guard ticket == inFlight else { return nil }
        ids += response.rows.map(\.id)
        nextPage += 1
        inFlight = nil
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: PageTicket) -> PageRequest<PageTicket>? {
        nil
    }

    func snapshot() -> PagerSnapshot<Int> { PagerSnapshot(visibleIDs: ids) }
}
