// Adapter for the kit's model level (Docs/Pagers.md, "The adapter"): `CatalogSearchState` is a
// value the store drives as a state machine, so the kit can drive it the same way.
import PagerContracts

struct CatalogSearchAdapter: PagerModelAdapter {
    typealias Ticket = CatalogSearchState.Ticket

    // Defaults: page numbers, no refresh/fill/appear trigger, P12's bound of 3 (the state stops
    // after three pages in a row that add nothing, which is `pagesWithoutNewProductsBeforeStopping`).
    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers,
        noProgressLimit: CatalogSearchState.pagesWithoutNewProductsBeforeStopping,
        clearedQuery: "")

    /// The kit names its queries "A", "B", … (Pagers.md: "an adapter may map the kit's "A" to a
    /// filter of its own"). A one-letter text is below the screen's minimum search length and
    /// would only show the "keep typing" hint, so each kit query becomes a searchable term.
    static func searchText(for kitQuery: String) -> String {
        "\(kitQuery.lowercased()) series"
    }

    // The kit starts every timeline on query "A" with nothing loaded.
    var state = CatalogSearchState(query: CatalogSearchAdapter.searchText(for: "A"))

    init() {}

    mutating func bottomReached() -> PageRequest<Ticket>? {
        state.loadNextPage().map(Self.request)
    }

    mutating func changeQuery(to query: String) -> PageRequest<Ticket>? {
        // The cleared field (declared as `clearedQuery`) goes to the screen as it is.
        state.setQuery(query.isEmpty ? "" : Self.searchText(for: query)).map(Self.request)
    }

    mutating func retry() -> PageRequest<Ticket>? {
        state.retry().map(Self.request)
    }

    mutating func deliver(_ response: PageResponse, for ticket: Ticket) -> PageRequest<Ticket>? {
        let products = response.rows.map {
            CatalogSearchState.Product(id: $0.id, name: $0.title, revision: $0.revision)
        }
        state.receive(.success(.init(products: products, hasMore: response.hasMore)), for: ticket)
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: Ticket) -> PageRequest<Ticket>? {
        let error: CatalogSearchState.LoadError
        switch failure {
        case .timeout: error = .timedOut
        case .serverError(let status): error = .server(status: status)
        case .cancelled: error = .cancelled
        }
        state.receive(.failure(error), for: ticket)
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: state.products.map(\.id),
            isLoading: state.isLoading,
            hasMore: state.hasMore,
            showsError: state.showsRetryBanner)
    }

    private static func request(_ fetch: CatalogSearchState.Fetch) -> PageRequest<Ticket> {
        PageRequest(fetch.ticket, page: fetch.page)
    }
}
