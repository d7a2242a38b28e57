import ConformanceTesting

/// A broken fixture in the twenty-fifth trial's shape: every answer is checked against the
/// request in flight before it touches the list, but the loading flag is cleared first, on
/// every path (the model-level twin of a load task's `defer { isLoading = false }`), so a late
/// answer of an earlier query, or of the list before a refresh, ends the current load's spinner.
struct FeedThatEndsLoadingOnEveryAnswer: PagerModelAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh])

    struct Ticket: Equatable {
        let generation: Int
        let page: Int
    }

    private var generation = 0
    private var rows: [Int] = []
    private var nextPage = 1
    private var hasMore = true
    private var inFlight: Ticket?
    private var isLoading = false
    private var showsError = false

    mutating func bottomReached() -> PageRequest<Ticket>? {
        guard hasMore, inFlight == nil else { return nil }
        return load()
    }

    mutating func changeQuery(to query: String) -> PageRequest<Ticket>? {
        startOver()
        rows = []
        return load()
    }

    mutating func refresh() -> PageRequest<Ticket>? {
        startOver()
        return load()
    }

    mutating func deliver(_ response: PageResponse, for ticket: Ticket) -> PageRequest<Ticket>? {
        isLoading = false  // the bug: before the ticket check
        guard ticket == inFlight else { return nil }
        inFlight = nil
        if ticket.page == 1 { rows = [] }
        for row in response.rows where !rows.contains(row.id) { rows.append(row.id) }
        nextPage = ticket.page + 1
        hasMore = response.hasMore
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: Ticket) -> PageRequest<Ticket>? {
        isLoading = false  // the bug again
        guard ticket == inFlight else { return nil }
        inFlight = nil
        showsError = true
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(visibleIDs: rows, isLoading: isLoading, hasMore: hasMore, showsError: showsError)
    }

    private mutating func startOver() {
        generation += 1
        nextPage = 1
        hasMore = true
        inFlight = nil
        showsError = false
    }

    private mutating func load() -> PageRequest<Ticket> {
        let ticket = Ticket(generation: generation, page: nextPage)
        inFlight = ticket
        isLoading = true
        showsError = false
        return PageRequest(ticket, page: nextPage)
    }
}
