import Foundation

/// One row of the activity tab ("Maya liked your photo", "Sam replied: …").
struct ReactionActivityItem: Identifiable, Hashable, Sendable {
    let id: Int
    let actorName: String
    let summary: String
    /// Live counters the server recomputes on every fetch.
    var reactionCount: Int
    var isUnread: Bool
}

/// One page of `GET /v1/activity?filter=…&page=…&limit=50`. Offset pages overlap when new
/// activity arrives at the top while the user scrolls, so a page can repeat rows already shown.
struct ReactionActivityPage: Sendable {
    let items: [ReactionActivityItem]
    let hasMore: Bool
}

enum ReactionActivityLoadFailure: Error, Sendable {
    case cancelled
    case network
}

/// The activity tab's list as a plain value-type state machine: the reducer's feature state
/// holds it, every user event returns the request to start (if any), and every answer comes
/// back with the ticket it was started with. No I/O here.
struct ActivityTimeline: Sendable {
    struct Ticket: Hashable, Sendable, CustomStringConvertible {
        let generation: Int
        let page: Int
        let serial: Int
        var description: String { "gen \(generation) page \(page) #\(serial)" }
    }

    enum Status: Equatable, Sendable {
        case idle
        case loading(Ticket)
        case failed  // footer: "Couldn't load. Retry"
        case ended  // footer: "You're all caught up"
    }

    private(set) var filter: String
    private(set) var items: [ReactionActivityItem] = []
    private(set) var status: Status = .idle
    private var generation = 0
    private var nextPage = 1
    private var serial = 0

    init(filter: String) {
        self.filter = filter
    }

    var isLoading: Bool {
        if case .loading = status { return true }
        return false
    }

    // MARK: Events

    /// The bottom of the list came on screen.
    mutating func scrolledToBottom() -> Ticket? {
        guard status == .idle else { return nil }  // loading, failed (tap Retry) or ended
        return start(page: nextPage)
    }

    /// The footer's Retry; with no error showing it loads what scrolling would.
    mutating func retryTapped() -> Ticket? {
        guard status == .idle || status == .failed else { return nil }
        return start(page: nextPage)
    }

    /// The filter chips ("All", "Mentions", "Follows", …). Loads the new filter's first page.
    mutating func filterChanged(to newFilter: String) -> Ticket? {
        guard newFilter != filter else { return nil }
        filter = newFilter
        generation += 1
        items = []
        nextPage = 1
        status = .idle
        return start(page: nextPage)
    }

    /// Pull to refresh: a new generation from the first page; the rows on screen stay until
    /// the first page arrives.
    mutating func pulledToRefresh() -> Ticket? {
        generation += 1
        nextPage = 1
        status = .idle
        return start(page: nextPage)
    }

    // MARK: Answers

    mutating func pageLoaded(_ page: ReactionActivityPage, for ticket: Ticket) {
        // An answer to an older filter or refresh, or one delivered twice: ignore it.
        guard status == .loading(ticket) else { return }
        if ticket.page == 1 { items = [] }  // a first page replaces the list
        // Drop rows the overlap between offset pages repeats.
        for item in page.items where !items.contains(item) {
            items.append(item)
        }
        nextPage = ticket.page + 1
        status = page.hasMore ? .idle : .ended
    }

    mutating func pageFailed(_ failure: ReactionActivityLoadFailure, for ticket: Ticket) {
        guard status == .loading(ticket) else { return }
        switch failure {
        case .cancelled: status = .idle  // nothing to show; scrolling or Retry asks again
        case .network: status = .failed  // position unchanged: Retry asks for the same page
        }
    }

    private mutating func start(page: Int) -> Ticket {
        serial += 1
        let ticket = Ticket(generation: generation, page: page, serial: serial)
        status = .loading(ticket)
        return ticket
    }
}
