// From an outside trial (trial 37): written again from its bug's description by another author,
// who saw only the view model's public surface and `ActivityAPI.swift`, never
// `TeamActivityFeedViewModel`. The planted bug: an answer is taken when its filter is the one
// selected now, not when it is the request in flight.

import Foundation
import Observation

/// Drives the team activity screen: a cursor-paginated list with an "All" / "Mentions" tab,
/// pull to refresh, prefetch as rows scroll in, and a footer "load more" / retry.
@MainActor @Observable
public final class BuggyTeamActivityFeedViewModel {

    // MARK: - Screen state

    public private(set) var items: [ActivityItem] = []

    /// A first page, next page or refresh is loading.
    public var isLoading: Bool { activeLoad != nil }

    public private(set) var hasNextPage = true
    public private(set) var errorMessage: String?

    /// The server handed back a cursor that would not move us forward; paging stopped.
    public private(set) var hasCursorProblem = false

    // MARK: - Dependencies

    @ObservationIgnored private let api: any ActivityFeedAPI
    @ObservationIgnored private let pageSize: Int
    @ObservationIgnored private let prefetchDistance: Int

    // MARK: - Paging bookkeeping

    private enum LoadKind {
        case firstPage
        case nextPage
        case refresh
    }

    /// What we asked the server for. Kept around so `retry()` can ask for exactly the same page.
    private struct PageRequest {
        let filter: ActivityFilter
        let cursor: String?
        let kind: LoadKind

        /// A first page (new tab or pull to refresh) replaces the list instead of appending to it.
        var replacesItems: Bool { kind != .nextPage }
    }

    private var filter: ActivityFilter
    private var activeLoad: LoadKind?

    @ObservationIgnored private var loadTask: Task<Void, Never>?
    @ObservationIgnored private var failedRequest: PageRequest?
    /// `endCursor` of the last accepted page; `nil` until the first page is in.
    @ObservationIgnored private var endCursor: String?
    /// Every cursor asked for in the current list (the first page is `nil`).
    @ObservationIgnored private var requestedCursors: Set<String?> = []
    @ObservationIgnored private var hasLoadedFirstPage = false
    @ObservationIgnored private var indexByID: [ActivityItem.ID: Int] = [:]

    public init(api: any ActivityFeedAPI, filter: ActivityFilter, pageSize: Int, prefetchDistance: Int) {
        self.api = api
        self.filter = filter
        self.pageSize = max(1, pageSize)
        self.prefetchDistance = max(0, prefetchDistance)
    }

    // MARK: - Intents

    /// First load when the screen appears; later appearances keep what is already on screen.
    public func onAppear() async {
        guard !hasLoadedFirstPage, activeLoad == nil, errorMessage == nil else { return }
        await start(PageRequest(filter: filter, cursor: nil, kind: .firstPage))
    }

    /// Prefetch once a row close enough to the end of the list scrolls in.
    public func rowDidAppear(id: ActivityItem.ID) async {
        guard let index = indexByID[id] else { return }
        let distanceFromEnd = items.count - 1 - index
        guard distanceFromEnd <= prefetchDistance else { return }
        await loadNextPage()
    }

    /// Footer "load more".
    public func loadNextPage() async {
        guard canLoadMore else { return }
        let kind: LoadKind = hasLoadedFirstPage ? .nextPage : .firstPage
        await start(PageRequest(filter: filter, cursor: endCursor, kind: kind))
    }

    /// After an error, ask again for the page that failed (same tab, same cursor).
    public func retry() async {
        guard let request = failedRequest, activeLoad == nil else { return }
        await start(request)
    }

    /// Switch between "All" and "Mentions".
    public func selectFilter(_ newFilter: ActivityFilter) async {
        guard newFilter != filter else { return }
        loadTask?.cancel()
        filter = newFilter
        resetList()
        await start(PageRequest(filter: newFilter, cursor: nil, kind: .firstPage))
    }

    /// Pull to refresh: the current rows stay on screen until the fresh first page replaces them.
    public func refresh() async {
        loadTask?.cancel()
        await start(PageRequest(filter: filter, cursor: nil, kind: .refresh))
    }

    // MARK: - Loading

    private var canLoadMore: Bool {
        activeLoad == nil && errorMessage == nil && hasNextPage && !hasCursorProblem
    }

    private func start(_ request: PageRequest) async {
        activeLoad = request.kind
        errorMessage = nil
        failedRequest = nil
        if !request.replacesItems {
            requestedCursors.insert(request.cursor)
        }

        let task = Task { await self.load(request) }
        loadTask = task
        await task.value
    }

    private func load(_ request: PageRequest) async {
        do {
            let page = try await api.teamActivity(filter: request.filter, first: pageSize, after: request.cursor)
            guard isStillWanted(request) else { return }
            accept(page, for: request)
        } catch is CancellationError {
            guard isStillWanted(request) else { return }
            activeLoad = nil
        } catch {
            guard isStillWanted(request) else { return }
            activeLoad = nil
            failedRequest = request
            errorMessage = Self.message(for: error)
        }
    }

    /// Drop answers for another tab: the user may have switched tabs while this page was loading.
    private func isStillWanted(_ request: PageRequest) -> Bool {
        request.filter == filter
    }

    private func accept(_ page: ActivityConnection, for request: PageRequest) {
        activeLoad = nil
        errorMessage = nil
        failedRequest = nil

        if request.replacesItems {
            items = []
            indexByID = [:]
            requestedCursors = [request.cursor]
            hasCursorProblem = false
        }
        merge(page.edges)
        hasLoadedFirstPage = true

        guard page.pageInfo.hasNextPage, !page.edges.isEmpty else {
            hasNextPage = false
            if let next = page.pageInfo.endCursor { endCursor = next }
            return
        }

        let next = page.pageInfo.endCursor
        guard next != request.cursor, !requestedCursors.contains(next) else {
            // Asking for this cursor again would serve pages we already have, forever.
            hasNextPage = false
            hasCursorProblem = true
            return
        }
        endCursor = next
        hasNextPage = true
    }

    /// Appends new rows; a row we already show keeps its place and takes the newer content.
    private func merge(_ edges: [ActivityItem]) {
        for item in edges {
            if let index = indexByID[item.id] {
                if item.revision >= items[index].revision {
                    items[index] = item
                }
            } else {
                indexByID[item.id] = items.count
                items.append(item)
            }
        }
    }

    private func resetList() {
        items = []
        indexByID = [:]
        endCursor = nil
        requestedCursors = []
        hasLoadedFirstPage = false
        hasNextPage = true
        hasCursorProblem = false
        errorMessage = nil
        failedRequest = nil
        activeLoad = nil
    }

    private static func message(for error: any Error) -> String {
        let description = error.localizedDescription
        return description.isEmpty ? "Couldn't load team activity." : description
    }
}

extension BuggyTeamActivityFeedViewModel: ActivityFeedModel {}
