import ConformanceTesting

/// A correct fixture in the sixth trial's shape: the first page comes from the appear event,
/// whose handler loads whenever the list holds no items and nothing loads (the usual
/// `guard items.isEmpty` of an `onAppear`). A query change and a refresh load page 1 by
/// themselves; the bottom trigger loads the next page once a page was accepted.
///
/// The explorer once sent the appear event at the first bottom trigger of a schedule, even
/// after a refresh had loaded an empty last page: the handler then rightly loaded page 1 again,
/// and the explorer reported it as a request after the end of the list.
struct ShelfPagerThatLoadsOnAppear: PagerModelAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh, .appear])

    struct Ticket: Equatable {
        let generation: Int
        let page: Int
    }

    private var generation = 0
    private var items: [Int] = []
    private var loadedPages = 0
    private var hasMore = true
    private var inFlight: Ticket?
    private var failedPage: Int?
    private var pagesWithoutNewItems = 0

    mutating func appear() -> PageRequest<Ticket>? {
        guard items.isEmpty, inFlight == nil else { return nil }
        return load(page: 1)
    }

    mutating func bottomReached() -> PageRequest<Ticket>? {
        guard loadedPages > 0, hasMore, failedPage == nil, inFlight == nil,
            pagesWithoutNewItems < Self.capabilities.noProgressLimit
        else { return nil }
        return load(page: loadedPages + 1)
    }

    mutating func changeQuery(to query: String) -> PageRequest<Ticket>? {
        startOver()
    }

    mutating func refresh() -> PageRequest<Ticket>? {
        startOver()
    }

    mutating func retry() -> PageRequest<Ticket>? {
        guard let page = failedPage, inFlight == nil else { return nil }
        return load(page: page)
    }

    mutating func deliver(_ response: PageResponse, for ticket: Ticket) -> PageRequest<Ticket>? {
        guard ticket == inFlight else { return nil }
        inFlight = nil
        failedPage = nil
        let before = items.count
        for row in response.rows where !items.contains(row.id) { items.append(row.id) }
        pagesWithoutNewItems = items.count == before ? pagesWithoutNewItems + 1 : 0
        loadedPages = ticket.page
        hasMore = response.hasMore
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: Ticket) -> PageRequest<Ticket>? {
        guard ticket == inFlight else { return nil }
        inFlight = nil
        failedPage = ticket.page
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(visibleIDs: items, isLoading: inFlight != nil, hasMore: hasMore, showsError: failedPage != nil)
    }

    private mutating func startOver() -> PageRequest<Ticket>? {
        generation += 1
        items = []
        loadedPages = 0
        hasMore = true
        failedPage = nil
        pagesWithoutNewItems = 0
        inFlight = nil
        return load(page: 1)
    }

    private mutating func load(page: Int) -> PageRequest<Ticket> {
        let ticket = Ticket(generation: generation, page: page)
        inFlight = ticket
        return PageRequest(ticket, page: page)
    }
}
