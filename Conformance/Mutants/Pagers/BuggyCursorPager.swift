import ReferenceImplementations

/// A copy of the reference ``CursorPager`` with one switchable bug, each bug site marked
/// `// BUG:`.
struct BuggyCursorPager {
    let bug: CursorPagerBug
    private(set) var generation = 0
    private(set) var nextCursor: String?
    private(set) var ids: [Int] = []
    private(set) var inFlight: CursorTicket?
    private(set) var hasMore = true
    private(set) var failed = false
    private(set) var protocolError = false
    private var requested: Set<String> = []
    private var pagesWithoutProgress = 0

    init(bug: CursorPagerBug) {
        self.bug = bug
    }

    mutating func start() -> CursorTicket? {
        guard hasMore || (bug == .restartsAfterTheEnd && nextCursor == nil) else { return nil }  // BUG
        guard !protocolError, inFlight == nil else { return nil }
        let ticket = CursorTicket(generation: generation, cursor: nextCursor)
        if let cursor = nextCursor { requested.insert(cursor) }
        inFlight = ticket
        return ticket
    }

    mutating func reset() {
        generation += 1
        nextCursor = nil
        ids = []
        inFlight = nil
        hasMore = true
        failed = false
        protocolError = false
        requested = []
        pagesWithoutProgress = 0
    }

    mutating func finish(_ ticket: CursorTicket, rows: [Int], hasMore: Bool, nextCursor: String?) {
        if bug == .takesCursorFromAnyResponse { self.nextCursor = nextCursor }  // BUG
        guard inFlight == ticket else { return }
        var seen = Set(ids)
        let countBefore = ids.count
        for id in rows where seen.insert(id).inserted { ids.append(id) }
        inFlight = nil
        failed = false
        self.hasMore = hasMore
        self.nextCursor = nextCursor
        pagesWithoutProgress = ids.count == countBefore ? pagesWithoutProgress + 1 : 0
        guard hasMore else { return }
        let stalled = bug != .noStallCheck && nextCursor == ticket.cursor  // BUG: noStallCheck
        let cycled =
            bug != .noStallCheck && bug != .noCycleCheck  // BUG: noCycleCheck
            && nextCursor.map(requested.contains) == true
        if stalled || cycled || nextCursor == nil || pagesWithoutProgress >= 3 {
            protocolError = true
        }
    }

    mutating func fail(_ ticket: CursorTicket) {
        guard inFlight == ticket else { return }
        inFlight = nil
        failed = true
    }
}
