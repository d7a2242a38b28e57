import ReferenceImplementations

/// A copy of the reference ``Pager`` with one switchable bug. Every place a bug changes the
/// logic is marked `// BUG:`; with no bug it behaves as the reference does.
struct BuggyPager {
    let bug: PagerBug
    private(set) var generation = 0
    private(set) var nextPage = 1
    private(set) var ids: [Int] = []
    private(set) var inFlight: PageTicket?
    private(set) var hasMore = true
    private(set) var failed = false
    private(set) var stalled = false
    private var pagesWithoutProgress = 0
    private var fillTarget: Int?
    private var fillBuffer: [Int] = []

    init(bug: PagerBug) {
        self.bug = bug
    }

    mutating func start() -> PageTicket? {
        guard hasMore || bug == .forgetsTheEnd else { return nil }  // BUG: forgetsTheEnd
        guard !stalled, inFlight == nil || bug == .restartsWhileInFlight else { return nil }  // BUG
        let ticket = PageTicket(generation: generation, page: nextPage)
        inFlight = ticket
        return ticket
    }

    mutating func reset() {
        generation += 1
        clear()
    }

    mutating func refresh() {
        if bug != .keepsGenerationOnRefresh { generation += 1 }  // BUG: keepsGenerationOnRefresh
        clear()
    }

    mutating func finish(_ ticket: PageTicket, rows: [Int], hasMore: Bool) -> Bool {
        guard matches(ticket) else { return false }
        if bug == .commitsFillAtTheEnd, let target = fillTarget {  // BUG: commitsFillAtTheEnd
            fillBuffer += rows
            nextPage += 1
            self.hasMore = hasMore
            inFlight = nil
            if ids.count + fillBuffer.count >= target || !hasMore { append(fillBuffer) }
            return true
        }
        let countBefore = ids.count
        append(rows)
        nextPage += 1
        self.hasMore = hasMore
        inFlight = nil
        failed = false
        pagesWithoutProgress = ids.count == countBefore ? pagesWithoutProgress + 1 : 0
        if hasMore && pagesWithoutProgress >= 3 && bug != .chainsEmptyPagesForever {  // BUG
            stalled = true
        }
        return true
    }

    mutating func fail(_ ticket: PageTicket, isCancellation: Bool) {
        if bug == .treatsCancellationAsCurrent && isCancellation {  // BUG
            inFlight = nil
            return
        }
        guard matches(ticket) || bug == .showsStaleFailures else { return }  // BUG
        inFlight = nil
        failed = true
        fillTarget = nil
        fillBuffer = []
        if bug == .advancesOnFailure { nextPage += 1 }  // BUG: advancesOnFailure
    }

    mutating func fill(minimumCount: Int) -> PageTicket? {
        fillTarget = minimumCount
        return continueFill()
    }

    mutating func continueFill() -> PageTicket? {
        guard let target = fillTarget, ids.count + fillBuffer.count < target, let ticket = start()
        else {
            fillTarget = nil
            return nil
        }
        return ticket
    }

    private func matches(_ ticket: PageTicket) -> Bool {
        switch bug {
        case .acceptsRepeatedCompletion: ticket.generation == generation  // BUG
        case .ticketIsThePageNumber: ticket.page == inFlight?.page  // BUG
        default: ticket == inFlight
        }
    }

    private mutating func append(_ rows: [Int]) {
        var seen = Set(ids)
        for id in rows where seen.insert(id).inserted { ids.append(id) }
        if bug == .sortsAfterDeduplicating { ids.sort() }  // BUG: sortsAfterDeduplicating
        fillBuffer = []
    }

    private mutating func clear() {
        nextPage = 1
        ids = []
        inFlight = nil
        hasMore = true
        failed = false
        stalled = false
        pagesWithoutProgress = 0
        fillTarget = nil
        fillBuffer = []
    }
}
