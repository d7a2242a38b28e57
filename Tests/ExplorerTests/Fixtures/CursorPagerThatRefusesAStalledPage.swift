import ConformanceTesting

/// A correct cursor pager that, when the server hands back the cursor it was asked for with
/// more pages promised, treats the whole response as a protocol error: it shows none of that
/// page's items and stops loading. P10 allows it (the rule asks only that loading stops), so
/// the explorer must not demand the refused items. It declares the recommended cursor-cycle
/// and no-progress stops absent, as many real pagers would: the explorer must hold it to
/// what it declares.
struct CursorPagerThatRefusesAStalledPage: PagerModelAdapter {
    struct Ticket: Equatable {
        let serial: Int
        let cursor: String?
    }

    static var capabilities: PagerCapabilities {
        PagerCapabilities(pagination: .cursors, stopsOnNoProgress: false, detectsCursorCycles: false)
    }

    private var serial = 0
    private var items: [Int] = []
    private var seen: Set<Int> = []
    private var cursor: String?
    private var loading: Ticket?
    private var exhausted = false
    private var brokenServer = false
    private var failed = false

    mutating func bottomReached() -> PageRequest<Ticket>? {
        guard loading == nil, !exhausted, !brokenServer else { return nil }
        serial += 1
        let ticket = Ticket(serial: serial, cursor: cursor)
        loading = ticket
        failed = false
        return PageRequest(ticket, cursor: cursor)
    }

    mutating func changeQuery(to query: String) -> PageRequest<Ticket>? {
        items = []
        seen = []
        cursor = nil
        loading = nil
        exhausted = false
        brokenServer = false
        failed = false
        return nil
    }

    mutating func deliver(_ response: PageResponse, for ticket: Ticket) -> PageRequest<Ticket>? {
        guard ticket == loading else { return nil }
        loading = nil
        if response.hasMore && (response.nextCursor == nil || response.nextCursor == ticket.cursor) {
            brokenServer = true  // refuse the page: the server is not paging
            return nil
        }
        for row in response.rows where seen.insert(row.id).inserted { items.append(row.id) }
        cursor = response.nextCursor
        exhausted = !response.hasMore
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: Ticket) -> PageRequest<Ticket>? {
        guard ticket == loading else { return nil }
        loading = nil
        failed = true
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: items, isLoading: loading != nil, hasMore: !exhausted && !brokenServer, showsError: failed,
            hasProtocolError: brokenServer)
    }
}
