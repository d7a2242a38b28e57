import Foundation
import Observation

/// State of the notifications inbox screen.
///
/// The view calls:
/// - `.task { await model.onAppear() }` for the first load,
/// - `.onAppear { Task { await model.lastRowAppeared() } }` on the last row,
/// - `.refreshable { await model.refresh() }`,
/// - the filter picker's binding calls `select(_:)`,
/// - the error footer's "Retry" button calls `retry()`.
///
/// Every load runs in one stored `Task`; a filter change or a refresh cancels it and bumps
/// `generation`, and a load only writes state while its generation is still the current one.
@MainActor
@Observable
public final class NotificationInboxViewModel {
    public private(set) var filter: NotificationFilter
    public private(set) var items: [NotificationItem] = []
    public private(set) var isLoading = false
    public private(set) var isRefreshing = false
    public private(set) var loadError: NotificationLoadError?
    /// The backend said there is nothing after the last page (or its cursor stopped moving).
    public private(set) var reachedEnd = false

    public var hasMore: Bool { !reachedEnd }
    public var showsRetry: Bool { loadError != nil }

    @ObservationIgnored private let repository: any NotificationRepository
    @ObservationIgnored private var loadTask: Task<Void, Never>?
    @ObservationIgnored private var generation = 0
    /// Cursor of the next page; `nil` while `reachedEnd` is false means "the first page".
    @ObservationIgnored private var nextCursor: String?
    @ObservationIgnored private var seenIDs: Set<String> = []
    /// Cursors already requested and answered in this generation, to stop on a looping backend.
    @ObservationIgnored private var usedCursors: Set<String> = []
    @ObservationIgnored private var hasStarted = false

    public init(repository: any NotificationRepository, filter: NotificationFilter = .all) {
        self.repository = repository
        self.filter = filter
    }

    // MARK: - Intents

    /// First load of the screen.
    public func onAppear() async {
        guard !hasStarted else { return }
        hasStarted = true
        await load()
    }

    /// The list's last row became visible. May be called many times.
    public func lastRowAppeared() async {
        guard loadTask == nil, loadError == nil, !reachedEnd else { return }
        hasStarted = true
        await load()
    }

    /// The error footer's retry button: re-issues the load that failed (same filter, same cursor).
    public func retry() async {
        guard loadError != nil, loadTask == nil else { return }
        loadError = nil
        await load()
    }

    /// A filter tab was selected.
    public func select(_ newFilter: NotificationFilter) async {
        guard newFilter != filter else { return }
        filter = newFilter
        startNewGeneration()
        items = []
        seenIDs = []
        hasStarted = true
        await load()
    }

    /// Pull to refresh: reloads the first page; the list stays until that page replaces it.
    public func refresh() async {
        startNewGeneration()
        isRefreshing = true
        hasStarted = true
        await load()
    }

    // MARK: - Loading

    private func startNewGeneration() {
        generation += 1
        loadTask?.cancel()
        loadTask = nil
        isLoading = false
        isRefreshing = false
        loadError = nil
        nextCursor = nil
        reachedEnd = false
        usedCursors = []
    }

    private func load() async {
        let task = startLoad()
        await task.value
    }

    private func startLoad() -> Task<Void, Never> {
        let generation = self.generation
        let filter = self.filter
        let cursor = nextCursor
        let repository = self.repository
        isLoading = true
        let task = Task { [weak self] in
            do {
                let page = try await repository.page(filter: filter, cursor: cursor)
                self?.applyPage(page, requestedCursor: cursor, generation: generation)
            } catch {
                self?.applyFailure(error, generation: generation)
            }
        }
        loadTask = task
        return task
    }

    private func applyPage(_ page: NotificationPage, requestedCursor: String?, generation: Int) {
        // A newer filter or refresh owns the state now.
        guard generation == self.generation else { return }
        finishLoading()

        if let requestedCursor {
            usedCursors.insert(requestedCursor)
        } else {
            // A first page (initial load, new filter or refresh) replaces the list.
            items = []
            seenIDs = []
        }
        for item in page.items where seenIDs.insert(item.id).inserted {
            items.append(item)
        }

        if let next = page.nextCursor, next != requestedCursor, !usedCursors.contains(next) {
            nextCursor = next
        } else {
            // nil: the end. A cursor that did not move or came back: the backend would loop, stop here.
            reachedEnd = true
        }
    }

    private func applyFailure(_ error: any Error, generation: Int) {
        guard generation == self.generation else { return }
        finishLoading()
        if error.isInboxLoadCancellation {
            // Not something the user did wrong: no banner; the next trigger asks for the same page.
            return
        }
        loadError = NotificationLoadError(message: Self.message(for: error))
    }

    private func finishLoading() {
        loadTask = nil
        isLoading = false
        isRefreshing = false
    }

    private static func message(for error: any Error) -> String {
        if let localized = error as? LocalizedError, let description = localized.errorDescription {
            return description
        }
        return "Couldn't load your notifications."
    }
}

extension Error {
    var isInboxLoadCancellation: Bool {
        if self is CancellationError { return true }
        if let urlError = self as? URLError, urlError.code == .cancelled { return true }
        return false
    }
}
