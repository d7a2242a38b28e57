import Foundation

/// A place returned by the nearby-search endpoint. Both the results list and the map pins are
/// built from the same array, so they can never disagree about what was found.
struct Place: Identifiable, Hashable, Sendable {
    let id: Int
    let name: String
}

/// Identifies one page request: the search it belongs to and the page it asks for.
struct PlacesPageTicket: Hashable, Sendable {
    let searchGeneration: Int
    let page: Int
}

/// Why a page request did not produce places.
enum PlacesLoadFailure: Error, Hashable, Sendable {
    case cancelled
    case timedOut
    case server(status: Int)
}

/// The screen that asked for more results. Only used for diagnostics: both screens share one
/// paging state, so "load more" from the map and from the list are the same request.
enum PlacesScreen: String, Sendable {
    case list
    case map
}

/// Paging state shared by `PlacesListScreen` and `PlacesMapScreen`.
///
/// The list loads more when its footer appears; the map loads more when the user pans past the
/// pins already shown. A new text search, or "Search this area" on the map, starts a new search
/// generation. Requests are executed by `PlacesService`, which calls back into `receive` or
/// `receiveFailure` with the ticket it was given.
final class SearchResultsCoordinator {
    /// After this many failed page requests in a row (any screen, any search), automatic
    /// loading pauses and both screens show the "Having trouble connecting" banner until the
    /// user taps Retry or a request succeeds.
    static let consecutiveFailureBudget = 3

    private(set) var query: String
    private(set) var places: [Place] = []
    private(set) var hasMore = true
    private(set) var inFlight: PlacesPageTicket?
    private(set) var lastFailure: PlacesLoadFailure?
    private(set) var isPausedForConnectivity = false
    private(set) var lastRequester: PlacesScreen?

    private var generation = 0
    private var nextPage = 1
    private var knownIDs: Set<Int> = []
    private var consecutiveFailures = 0
    /// Requests handed to `PlacesService` and not answered yet, including those of superseded
    /// searches, which we let finish rather than cancel (the service may already have cached
    /// their response for the map tiles).
    private var outstanding: Set<PlacesPageTicket> = []

    init(query: String) {
        self.query = query
    }

    var isLoading: Bool { inFlight != nil }
    var showsErrorBanner: Bool { lastFailure != nil || isPausedForConnectivity }

    // MARK: Triggers

    /// Footer appeared (list) or the user panned past the loaded pins (map).
    func loadMore(from screen: PlacesScreen) -> PlacesPageTicket? {
        guard inFlight == nil, hasMore, !showsErrorBanner else { return nil }
        lastRequester = screen
        return startRequest()
    }

    /// Text search, or "Search this area" on the map. Loads the first page right away.
    func search(_ newQuery: String) -> PlacesPageTicket? {
        query = newQuery
        generation += 1
        nextPage = 1
        places = []
        knownIDs = []
        hasMore = true
        inFlight = nil
        lastFailure = nil
        // A new search is an explicit user action, so let it through even while paused.
        isPausedForConnectivity = false
        return startRequest()
    }

    /// The banner's Retry button.
    func retry() -> PlacesPageTicket? {
        guard inFlight == nil, hasMore else { return nil }
        lastFailure = nil
        isPausedForConnectivity = false
        return startRequest()
    }

    // MARK: Service callbacks

    func receive(_ page: [Place], hasMore more: Bool, for ticket: PlacesPageTicket) {
        outstanding.remove(ticket)
        guard ticket == inFlight else { return }  // an earlier search, or a repeated callback
        inFlight = nil
        consecutiveFailures = 0
        isPausedForConnectivity = false
        lastFailure = nil
        for place in page where knownIDs.insert(place.id).inserted {
            places.append(place)
        }
        hasMore = more
        nextPage = ticket.page + 1
    }

    func receiveFailure(_ failure: PlacesLoadFailure, for ticket: PlacesPageTicket) {
        // A callback for a request that was already answered (the client's timeout timer firing
        // after a slow response got through) is not a second failure.
        guard outstanding.remove(ticket) != nil else { return }
        if failure == .cancelled {
            // The system cancelled it (the app went to the background): that says nothing about
            // the backend, and the next footer or pan asks for the same page again.
            if ticket == inFlight { inFlight = nil }
            return
        }
        // Backend health is shared by both screens and every search: the map fires a search per
        // pan, and a superseded one that timed out still tells us the backend is struggling.
        // Counting them all pauses both screens before they hammer an API that is already down.
        consecutiveFailures += 1
        if consecutiveFailures >= Self.consecutiveFailureBudget {
            isPausedForConnectivity = true
        }
        guard ticket == inFlight else { return }
        inFlight = nil
        lastFailure = failure
    }

    private func startRequest() -> PlacesPageTicket {
        let ticket = PlacesPageTicket(searchGeneration: generation, page: nextPage)
        inFlight = ticket
        outstanding.insert(ticket)
        return ticket
    }
}
