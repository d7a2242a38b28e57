import PagerContracts

/// Drives the shared coordinator the way the list screen does (the map's calls are the same
/// calls with `.map`).
struct ListMapCoordinatorAdapter: PagerModelAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers,
        stopsOnNoProgress: false)  // it never chains a load by itself; it waits for the footer

    var coordinator = SearchResultsCoordinator(query: "A")

    mutating func bottomReached() -> PageRequest<PlacesPageTicket>? {
        coordinator.loadMore(from: .list).map { PageRequest($0, page: $0.page) }
    }

    mutating func changeQuery(to query: String) -> PageRequest<PlacesPageTicket>? {
        coordinator.search(query).map { PageRequest($0, page: $0.page) }
    }

    mutating func retry() -> PageRequest<PlacesPageTicket>? {
        coordinator.retry().map { PageRequest($0, page: $0.page) }
    }

    mutating func deliver(_ response: PageResponse, for ticket: PlacesPageTicket) -> PageRequest<PlacesPageTicket>? {
        coordinator.receive(
            response.rows.map { Place(id: $0.id, name: $0.title) },
            hasMore: response.hasMore, for: ticket)
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: PlacesPageTicket) -> PageRequest<PlacesPageTicket>? {
        let mapped: PlacesLoadFailure
        switch failure {
        case .cancelled: mapped = .cancelled
        case .timeout: mapped = .timedOut
        case .serverError(let status): mapped = .server(status: status)
        }
        coordinator.receiveFailure(mapped, for: ticket)
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: coordinator.places.map(\.id),
            isLoading: coordinator.isLoading,
            hasMore: coordinator.hasMore,
            showsError: coordinator.showsErrorBanner)
    }
}
