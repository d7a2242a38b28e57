import Foundation

/// One entry of the activity feed (`GET /v2/activity`).
struct FeedActivity: Identifiable, Hashable, Sendable {
    let id: String
    var title: String
}

/// One page of `GET /v2/activity?filter=…&cursor=…`. The server pages with opaque cursors:
/// `nextCursor` is the cursor to send for the page after this one.
struct ActivityPage: Sendable {
    var items: [FeedActivity]
    var hasMore: Bool
    var nextCursor: String?
}

/// The activity tab's data: a cursor-paginated feed with filter chips and pull-to-refresh.
///
/// Every load is recognised by a ticket (generation + cursor), so a page that comes back after
/// a filter change or a refresh is dropped. The store also protects the UI against a backend
/// that stops advancing its cursors (same cursor again, or a cycle), and against pages that
/// keep adding nothing new, instead of chaining loads forever under the bottom spinner.
actor ActivityFeedStore {
    typealias Fetch = @Sendable (_ filter: String, _ cursor: String?) async throws -> ActivityPage

    /// Why automatic loading stopped although the server said there was more.
    enum Stop: Equatable, Sendable {
        case cursorDidNotAdvance
        case cursorCycle
        case noNewItems
    }

    struct Snapshot: Equatable, Sendable {
        var filter: String
        var items: [FeedActivity]
        var isLoading: Bool
        var hasMore: Bool
        var errorMessage: String?
        var stop: Stop?

        /// Whether the footer shows the "load more" spinner sentinel.
        var canLoadMore: Bool { hasMore && stop == nil }
        /// Whether the footer shows "Something went wrong with this feed" (no retry).
        var showsProtocolError: Bool { stop == .cursorDidNotAdvance || stop == .cursorCycle }
    }

    private struct Ticket: Equatable {
        let generation: Int
        let cursor: String?
    }

    private let fetch: Fetch
    private let noProgressLimit: Int

    private var filter: String
    private var items: [FeedActivity] = []
    private var seenIDs: Set<String> = []
    private var nextCursor: String?
    private var hasMore = true
    private var generation = 0
    private var inFlight: Ticket?
    private var errorMessage: String?
    private var stop: Stop?
    private var pagesWithoutNewItems = 0
    /// Every cursor the server has handed out for the list on screen, to catch a cycle (A, B, A).
    private var seenCursors: Set<String> = []

    init(filter: String, noProgressLimit: Int = 3, fetch: @escaping Fetch) {
        self.filter = filter
        self.noProgressLimit = noProgressLimit
        self.fetch = fetch
    }

    var snapshot: Snapshot {
        Snapshot(
            filter: filter, items: items, isLoading: inFlight != nil, hasMore: hasMore,
            errorMessage: errorMessage, stop: stop)
    }

    // MARK: - Triggers

    /// The bottom sentinel appeared (also the first load).
    func loadNextPage() async {
        guard inFlight == nil, errorMessage == nil, hasMore, stop == nil else { return }
        await load(Ticket(generation: generation, cursor: nextCursor))
    }

    /// The footer's "Retry" button.
    func retry() async {
        errorMessage = nil
        await loadNextPage()
    }

    /// A filter chip was selected: a new list.
    func setFilter(_ newFilter: String) async {
        guard newFilter != filter else { return }
        filter = newFilter
        reset()
        await loadNextPage()
    }

    /// Pull-to-refresh. The current items stay on screen until the first page is back, so the
    /// list does not flash empty under the refresh control.
    func refresh() async {
        generation += 1
        inFlight = nil
        nextCursor = nil
        hasMore = true
        errorMessage = nil
        stop = nil
        pagesWithoutNewItems = 0
        await load(Ticket(generation: generation, cursor: nil))
    }

    // MARK: - Loading

    private func reset() {
        generation += 1
        inFlight = nil
        items = []
        seenIDs = []
        nextCursor = nil
        hasMore = true
        errorMessage = nil
        stop = nil
        pagesWithoutNewItems = 0
        seenCursors = []
    }

    private func load(_ ticket: Ticket) async {
        inFlight = ticket
        let page: ActivityPage
        do {
            page = try await fetch(filter, ticket.cursor)
        } catch {
            // Actor reentrancy: the filter may have changed, or a refresh started, while we waited.
            guard inFlight == ticket else { return }
            inFlight = nil
            if !(error is CancellationError) {
                errorMessage = "Couldn't load activity. Check your connection and try again."
            }
            return
        }
        guard inFlight == ticket else { return }
        inFlight = nil
        apply(page, for: ticket)
    }

    private func apply(_ page: ActivityPage, for ticket: Ticket) {
        if ticket.cursor == nil {
            // First page of this list (first load, new filter or refresh): it replaces what is shown.
            items = []
            seenIDs = []
        }
        var added = 0
        for item in page.items where seenIDs.insert(item.id).inserted {
            items.append(item)
            added += 1
        }
        hasMore = page.hasMore
        guard page.hasMore else { return }

        guard let next = page.nextCursor, next != ticket.cursor else {
            stop = .cursorDidNotAdvance
            return
        }
        guard seenCursors.insert(next).inserted else {
            stop = .cursorCycle
            return
        }
        nextCursor = next
        pagesWithoutNewItems = added == 0 ? pagesWithoutNewItems + 1 : 0
        if pagesWithoutNewItems >= noProgressLimit {
            stop = .noNewItems
        }
    }
}
