import Observation

/// The notifications inbox screen: three filter tabs over a cursor-paged repository.
///
/// Every load runs in one stored `Task`. A tab switch or a pull to refresh cancels it and starts
/// a new one; each load carries a ticket (`generation`) and only the current one may touch the
/// state.
@MainActor
@Observable
public final class BuggyNotificationInboxViewModel {
    // MARK: State the screen reads

    public private(set) var filter: NotificationFilter
    public private(set) var items: [NotificationItem] = []
    public private(set) var isLoading = false
    public private(set) var loadError: NotificationLoadError?

    /// `true` while another page can be asked for (the first page counts: nothing loaded yet,
    /// a refresh that has not landed, a first page that failed).
    public var hasMore: Bool {
        if case .end = nextPage { return false }
        return true
    }

    // MARK: Private state

    /// Where the list goes on from.
    private enum NextPage: Equatable {
        case first
        case after(String)
        case end
    }

    @ObservationIgnored private let repository: any NotificationRepository
    @ObservationIgnored private var loadTask: Task<Void, Never>?
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var hasAppeared = false
    /// The cursors this list has been handed since its first page; one coming back ends it.
    @ObservationIgnored private var seenCursors: Set<String> = []
    /// The last load failed or was cancelled before its page came: retry asks for it again.
    @ObservationIgnored private var lastLoadInterrupted = false
    private var nextPage: NextPage = .first

    public init(repository: any NotificationRepository, filter: NotificationFilter = .all) {
        self.repository = repository
        self.filter = filter
    }

    // MARK: Intents

    /// The screen appeared: load the first page, once.
    public func onAppear() async {
        guard !hasAppeared else { return }
        hasAppeared = true
        guard !isLoading else { return }
        await load(.first)
    }

    /// The last row came on screen: load the next page if there is one and nothing is going on.
    public func lastRowAppeared() async {
        guard !isLoading, loadError == nil, nextPage != .end else { return }
        hasAppeared = true
        await load(nextPage)
    }

    /// A tab was tapped: a new list, from its first page.
    public func select(_ filter: NotificationFilter) async {
        guard filter != self.filter else { return }
        hasAppeared = true
        loadTask?.cancel()
        self.filter = filter
        items = []
        loadError = nil
        restartPagination()
        await load(.first)
    }

    /// Pull to refresh: reload the first page; the rows stay until it replaces them.
    public func refresh() async {
        hasAppeared = true
        loadTask?.cancel()
        restartPagination()
        await load(.first)
    }

    /// The error footer's button: ask again for the page that did not come.
    public func retry() async {
        guard !isLoading, lastLoadInterrupted, nextPage != .end else { return }
        await load(nextPage)
    }

    // MARK: Loading

    private func restartPagination() {
        nextPage = .first
        seenCursors = []
    }

    private func load(_ page: NextPage) async {
        let cursor: String?
        switch page {
        case .first: cursor = nil
        case .after(let next): cursor = next
        case .end: return
        }

        generation += 1
        let ticket = generation
        let filter = filter
        let repository = repository
        isLoading = true
        loadError = nil
        lastLoadInterrupted = false

        let task = Task { [weak self] in
            do {
                let page = try await repository.page(filter: filter, cursor: cursor)
                self?.finish(with: page, requestedCursor: cursor, ticket: ticket)
            } catch {
                self?.finish(with: error, ticket: ticket)
            }
        }
        loadTask = task
        await task.value
    }

    private func finish(with page: NotificationPage, requestedCursor: String?, ticket: Int) {
        guard ticket == generation else { return }
        loadTask = nil
        isLoading = false

        // A first page replaces the list (after a refresh the old rows stayed until now).
        var rows = requestedCursor == nil ? [] : items
        var ids = Set(rows.map(\.id))
        for item in page.items where ids.insert(item.id).inserted {
            rows.append(item)
        }
        items = rows

        if let next = page.nextCursor, next != requestedCursor, !seenCursors.contains(next) {
            seenCursors.insert(next)
            nextPage = .after(next)
        } else {
            // No cursor, or one that did not move or came back: the list ends here.
            nextPage = .end
        }
    }

    private func finish(with error: any Error, ticket: Int) {
        if error is CancellationError {
            // Cancelled: no banner, but the load is over and retry or the last row asks again.
            loadTask = nil
            isLoading = false
            lastLoadInterrupted = true
            return
        }
        guard ticket == generation else { return }
        loadTask = nil
        isLoading = false
        lastLoadInterrupted = true
        loadError = (error as? NotificationLoadError)
            ?? NotificationLoadError(message: "Couldn't load your notifications.")
    }
}
