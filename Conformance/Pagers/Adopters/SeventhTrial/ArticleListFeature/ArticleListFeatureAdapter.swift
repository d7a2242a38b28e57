import PagerContracts

/// (c) ArticleListState: a reducer, driven as a state machine (model level).
struct ArticleListFeatureAdapter: PagerModelAdapter {
    typealias Ticket = ArticleListState.Fetch
    static let capabilities = PagerCapabilities(triggers: [.refresh], stopsOnNoProgress: false)

    var state = ArticleListState(topic: "A")

    private mutating func send(_ action: ArticleListState.Action) -> PageRequest<Ticket>? {
        state.reduce(action).map { PageRequest($0, page: $0.page) }
    }

    mutating func bottomReached() -> PageRequest<Ticket>? { send(.scrolledToBottom) }
    mutating func retry() -> PageRequest<Ticket>? { send(.retryTapped) }
    mutating func changeQuery(to query: String) -> PageRequest<Ticket>? { send(.topicSelected(query)) }
    mutating func refresh() -> PageRequest<Ticket>? { send(.pulledToRefresh) }

    mutating func deliver(_ response: PageResponse, for ticket: Ticket) -> PageRequest<Ticket>? {
        let page = R7Page(items: response.rows.map { R7Article(id: $0.id, headline: $0.title) }, hasMore: response.hasMore)
        return send(.articlesResponse(topic: ticket.topic, page: ticket.page, .success(page)))
    }

    mutating func fail(_ failure: PageFailure, for ticket: Ticket) -> PageRequest<Ticket>? {
        send(.articlesResponse(topic: ticket.topic, page: ticket.page, .failure(.init(failure.description))))
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: state.articles.map(\.id), isLoading: state.isLoading,
            hasMore: state.hasMore, showsError: state.errorMessage != nil)
    }
}
