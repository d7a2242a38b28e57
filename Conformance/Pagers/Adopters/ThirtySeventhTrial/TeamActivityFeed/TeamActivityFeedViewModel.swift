import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Observation

/// Team activity feed: a cursor-paginated list with a "mentions only" filter, pull to refresh,
/// prefetch near the end and retry after a failure.
///
/// View wiring:
/// - `.task { await model.onAppear() }` on the list,
/// - `.onAppear { Task { await model.rowDidAppear(id: item.id) } }` on every row,
/// - `.refreshable { await model.refresh() }`,
/// - the filter picker calls `selectFilter(_:)`, the footer's retry button `retry()`.
@MainActor
@Observable
public final class TeamActivityFeedViewModel {
    // MARK: State the view reads

    public private(set) var items: [ActivityItem] = []
    public private(set) var filter: ActivityFilter
    /// The footer spinner (next page, or the first page of a filter).
    public private(set) var isLoadingNextPage = false
    /// The pull-to-refresh spinner; the old items stay visible meanwhile.
    public private(set) var isRefreshing = false
    /// Shown in the footer with a retry button; the items stay.
    public private(set) var errorMessage: String?
    /// False once the server said `hasNextPage == false` (or sent an empty page).
    public private(set) var hasNextPage = true
    /// The server broke the cursor protocol (the cursor did not advance, or came back to one we
    /// already asked for). Automatic loading stops; pull to refresh starts again.
    public private(set) var hasCursorProblem = false

    public var isLoading: Bool { isLoadingNextPage || isRefreshing }
    public var showsEndOfList: Bool { !hasNextPage || hasCursorProblem }

    // MARK: Configuration

    public let pageSize: Int
    /// Prefetch when a row this close to the end appears.
    public let prefetchDistance: Int

    // MARK: Private

    private struct Request: Equatable {
        let id: Int
        let generation: Int
        let cursor: String?
        /// A refresh's first page replaces the items kept on screen while it loads.
        let replacesItems: Bool
    }

    private let api: any ActivityFeedAPI
    @ObservationIgnored private var loadMoreTask: Task<Void, Never>?
    /// Bumped on every filter change and refresh: a new list.
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var lastRequestID = 0
    /// The one request whose answer we accept.
    @ObservationIgnored private var inFlight: Request?
    /// The cursor the next page (or a retry of a failed one) is asked with.
    @ObservationIgnored private var nextCursor: String?
    @ObservationIgnored private var replacesItemsOnNextPage = false
    @ObservationIgnored private var indexByID: [ActivityItem.ID: Int] = [:]
    @ObservationIgnored private var requestedCursors: Set<String> = []

    public init(
        api: any ActivityFeedAPI,
        filter: ActivityFilter = .all,
        pageSize: Int = 25,
        prefetchDistance: Int = 5
    ) {
        self.api = api
        self.filter = filter
        self.pageSize = pageSize
        self.prefetchDistance = prefetchDistance
    }

    // MARK: Intents

    /// First load when the screen appears. Appearing again (navigating back) keeps the list.
    public func onAppear() async {
        guard items.isEmpty, inFlight == nil else { return }
        await loadNextPage()
    }

    /// Called for every row that appears; prefetches the next page near the end.
    public func rowDidAppear(id: ActivityItem.ID) async {
        guard let index = indexByID[id], index >= items.count - prefetchDistance else { return }
        await loadNextPage()
    }

    /// The footer's trigger. Does nothing while a page loads, after the end, or while an error
    /// is shown (the footer then shows its retry button instead).
    public func loadNextPage() async {
        guard inFlight == nil, errorMessage == nil, hasNextPage, !hasCursorProblem else { return }
        await startLoad(after: nextCursor, replacingItems: replacesItemsOnNextPage).value
    }

    /// The footer's retry button: asks again for the page that failed (same cursor).
    public func retry() async {
        guard errorMessage != nil, inFlight == nil else { return }
        errorMessage = nil
        await startLoad(after: nextCursor, replacingItems: replacesItemsOnNextPage).value
    }

    public func selectFilter(_ newFilter: ActivityFilter) async {
        guard newFilter != filter else { return }
        filter = newFilter
        beginNewList(keepingItems: false)
        await startLoad(after: nil, replacingItems: false).value
    }

    /// Pull to refresh: the current items stay until the new first page arrives, then swap.
    public func refresh() async {
        beginNewList(keepingItems: true)
        await startLoad(after: nil, replacingItems: true).value
    }

    // MARK: Loading

    private func beginNewList(keepingItems: Bool) {
        loadMoreTask?.cancel()
        loadMoreTask = nil
        inFlight = nil
        generation += 1
        nextCursor = nil
        requestedCursors = []
        hasNextPage = true
        hasCursorProblem = false
        errorMessage = nil
        isLoadingNextPage = false
        isRefreshing = false
        replacesItemsOnNextPage = keepingItems
        if !keepingItems {
            items = []
            indexByID = [:]
        }
    }

    private func startLoad(after cursor: String?, replacingItems: Bool) -> Task<Void, Never> {
        lastRequestID += 1
        let request = Request(
            id: lastRequestID, generation: generation, cursor: cursor, replacesItems: replacingItems)
        inFlight = request
        if replacingItems { isRefreshing = true } else { isLoadingNextPage = true }

        let api = self.api
        let filter = self.filter
        let pageSize = self.pageSize
        let task = Task { [weak self] in
            let result: Result<ActivityConnection, any Error>
            do {
                result = .success(try await api.teamActivity(filter: filter, first: pageSize, after: cursor))
            } catch {
                result = .failure(error)
            }
            self?.finish(request, with: result)
        }
        loadMoreTask = task
        return task
    }

    private func finish(_ request: Request, with result: Result<ActivityConnection, any Error>) {
        // Only the request we wait for may touch the state: answers for an earlier filter, for a
        // list a refresh replaced, or for a cancelled load are dropped here, whatever they carry.
        guard request == inFlight else { return }
        inFlight = nil
        loadMoreTask = nil
        isLoadingNextPage = false
        isRefreshing = false

        switch result {
        case .success(let connection):
            apply(connection, for: request)
        case .failure(let error):
            // The cursor did not move: the next trigger or the retry asks for the same page.
            if error is CancellationError || (error as? URLError)?.code == .cancelled {
                return  // nothing to tell the user; the footer loads it again
            }
            errorMessage = Self.message(for: error)
        }
    }

    private func apply(_ connection: ActivityConnection, for request: Request) {
        if request.replacesItems {
            items = []
            indexByID = [:]
            replacesItemsOnNextPage = false
        }

        // De-duplicate by id across pages: new activity shifts the server's cursor window, so a
        // later page can repeat rows we show. A repeated row keeps its place, with its new content.
        var updated = items
        for edge in connection.edges {
            if let index = indexByID[edge.id] {
                updated[index] = edge
            } else {
                indexByID[edge.id] = updated.count
                updated.append(edge)
            }
        }
        items = updated

        let pageInfo = connection.pageInfo
        guard pageInfo.hasNextPage else {
            hasNextPage = false
            return
        }
        guard !connection.edges.isEmpty else {
            // "More" with nothing in it: stop rather than ask forever.
            hasNextPage = false
            return
        }
        if let cursor = request.cursor { requestedCursors.insert(cursor) }
        guard let endCursor = pageInfo.endCursor, !requestedCursors.contains(endCursor) else {
            hasCursorProblem = true
            return
        }
        nextCursor = endCursor
    }

    private static func message(for error: any Error) -> String {
        if let urlError = error as? URLError, urlError.code == .notConnectedToInternet {
            return "You're offline."
        }
        return "Couldn't load activity."
    }
}
