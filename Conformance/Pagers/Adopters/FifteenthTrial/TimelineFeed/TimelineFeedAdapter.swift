import PagerContracts

/// Model-level adapter: the kit plays the store, sending what `TimelineFeed` asks for and handing
/// the answers back with the request value as the ticket.
struct TimelineFeedAdapter: PagerModelAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers,
        triggers: [.refresh],
        noProgressLimit: TimelineFeed.noProgressLimit,
        stopsOnNoProgress: true)

    var feed = TimelineFeed(filter: "A")

    mutating func bottomReached() -> PageRequest<TimelineFeed.Request>? {
        feed.loadNextPage().map(Self.request)
    }

    mutating func changeQuery(to query: String) -> PageRequest<TimelineFeed.Request>? {
        feed.setFilter(query).map(Self.request)
    }

    mutating func refresh() -> PageRequest<TimelineFeed.Request>? {
        feed.refresh().map(Self.request)
    }

    mutating func retry() -> PageRequest<TimelineFeed.Request>? {
        feed.retry().map(Self.request)
    }

    mutating func deliver(_ response: PageResponse, for ticket: TimelineFeed.Request) -> PageRequest<TimelineFeed.Request>? {
        let page = TimelinePage(
            posts: response.rows.map { Post(id: $0.id, title: $0.title) },
            hasMore: response.hasMore)
        feed.receive(page, for: ticket)
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: TimelineFeed.Request) -> PageRequest<TimelineFeed.Request>? {
        feed.receiveFailure(failure.isCancellation ? .cancelled : .failed(failure.description), for: ticket)
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: feed.posts.map(\.id),
            isLoading: feed.isLoading,
            hasMore: feed.hasMore,
            showsError: feed.errorMessage != nil,
            hasProtocolError: feed.isStalled)
    }

    private static func request(_ request: TimelineFeed.Request) -> PageRequest<TimelineFeed.Request> {
        PageRequest(request, page: request.page)
    }
}
