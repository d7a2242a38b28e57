import PagerContracts

/// Drives the search state machine; the kit's pages become GraphQL connections.
struct ProductSearchConnectionAdapter: PagerModelAdapter {
    typealias ItemID = String
    static let capabilities = PagerCapabilities(pagination: .cursors)

    private var search = ProductConnectionSearch(term: "A")

    static func itemID(for row: PageRow) -> String { row.stringID }

    private static func request(_ request: SearchRequest?) -> PageRequest<SearchRequest>? {
        request.map { PageRequest($0, cursor: $0.after) }
    }

    mutating func bottomReached() -> PageRequest<SearchRequest>? { Self.request(search.loadMore()) }
    mutating func changeQuery(to query: String) -> PageRequest<SearchRequest>? { Self.request(search.search(query)) }
    mutating func retry() -> PageRequest<SearchRequest>? { Self.request(search.retry()) }

    mutating func deliver(_ response: PageResponse, for ticket: SearchRequest) -> PageRequest<SearchRequest>? {
        let connection = ProductConnection(
            edges: response.rows.map { .init(node: .init(id: $0.stringID, name: $0.title)) },
            pageInfo: .init(hasNextPage: response.hasMore, endCursor: response.nextCursor))
        search.receive(connection, for: ticket)
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: SearchRequest) -> PageRequest<SearchRequest>? {
        switch failure {
        case .timeout: search.receiveFailure(.network, for: ticket)
        case .serverError(let status): search.receiveFailure(.server(status: status), for: ticket)
        case .cancelled: search.receiveFailure(.cancelled, for: ticket)
        }
        return nil
    }

    func snapshot() -> PagerSnapshot<String> {
        PagerSnapshot(
            visibleIDs: search.visibleProducts.map(\.id), isLoading: search.isLoading,
            hasMore: search.hasNextPage, showsError: search.failure != nil,
            hasProtocolError: search.hitPagingBug)
    }
}
