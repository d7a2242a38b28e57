import ConformanceTesting
import Foundation
import ReferenceImplementations

/// The reference pager over `UUID` item IDs, reporting only the visible items: a correct pager
/// the kit must pass whatever its ID type and however little state it reports.
struct UUIDPagerAdapter: PagerModelAdapter {
    var pager = Pager<UUID>()

    mutating func bottomReached() -> PageRequest<PageTicket>? {
        pager.start().map { PageRequest($0, page: $0.page) }
    }

    mutating func changeQuery(to query: String) -> PageRequest<PageTicket>? {
        pager.reset()
        return pager.start().map { PageRequest($0, page: $0.page) }
    }

    mutating func deliver(_ response: PageResponse, for ticket: PageTicket) -> PageRequest<PageTicket>? {
        pager.finish(ticket, rows: response.rows.map(\.uuid), hasMore: response.hasMore)
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: PageTicket) -> PageRequest<PageTicket>? {
        pager.fail(ticket)
        return nil
    }

    func snapshot() -> PagerSnapshot<UUID> { PagerSnapshot(visibleIDs: pager.ids) }

    static func itemID(for row: PageRow) -> UUID { row.uuid }
}
