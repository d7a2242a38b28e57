import Foundation

/// Owns the inbox's paging state.
///
/// All state lives on the actor; the view layer reads `snapshot` after each call. A
/// `loadNextPage()` that arrives while a page is loading joins that load instead of starting
/// another, so the caller returns once the page it asked for is in (or has failed).
///
/// Every `reload(filter:)` starts a new generation. Results that come back for an older
/// generation are dropped.
actor InboxPager {
    private let service: any InboxService

    private(set) var filter: InboxFilter
    private var messages: [MailboxMessage] = []
    private var seenIDs: Set<UUID> = []
    private var nextPage = 1
    private var hasMore = true
    private var errorMessage: String?

    private var generation = 0
    private var loadTask: Task<Void, Never>?

    init(service: any InboxService, filter: InboxFilter = InboxFilter()) {
        self.service = service
        self.filter = filter
    }

    /// The state the inbox list renders.
    var snapshot: InboxSnapshot {
        InboxSnapshot(
            filter: filter,
            messages: messages,
            isLoading: loadTask != nil,
            hasMore: hasMore,
            errorMessage: errorMessage)
    }

    // MARK: - Commands

    /// Loads the next page, or the first one if nothing is loaded yet.
    ///
    /// While a load is running this waits for it instead of starting another. After a failure
    /// it asks for the page that failed again.
    func loadNextPage() async {
        if let loadTask {
            await loadTask.value
            return
        }
        guard hasMore else { return }
        errorMessage = nil
        await startLoad(page: nextPage)
    }

    /// Tries the failed page again. Does nothing at the end of the list.
    func retry() async {
        await loadNextPage()
    }

    /// Shows `filter` from its first page. With the current filter this is pull-to-refresh:
    /// the messages stay visible until page 1 replaces them.
    func reload(filter newFilter: InboxFilter) async {
        loadTask?.cancel()
        loadTask = nil
        generation += 1

        if newFilter != filter {
            filter = newFilter
            messages = []
            seenIDs = []
        }
        nextPage = 1
        hasMore = true
        errorMessage = nil
        await startLoad(page: 1)
    }

    // MARK: - Loading

    private func startLoad(page: Int) async {
        let task = Task { [generation, filter] in
            await self.performLoad(page: page, filter: filter, generation: generation)
        }
        loadTask = task
        await task.value
    }

    private func performLoad(page: Int, filter: InboxFilter, generation: Int) async {
        defer { loadTask = nil }
        do {
            let result = try await service.messages(filter: filter, page: page)
            guard generation == self.generation else { return }
            apply(result.rows, hasMore: result.hasMore, page: page)
        } catch is CancellationError {
            // The page stays where it is; the next trigger asks for it again.
        } catch {
            guard generation == self.generation else { return }
            errorMessage = Self.message(for: error)
        }
    }

    private func apply(_ rows: [MailboxMessage], hasMore: Bool, page: Int) {
        if page == 1 {
            messages = []
            seenIDs = []
        }
        for row in rows where seenIDs.insert(row.id).inserted {
            messages.append(row)
        }
        nextPage = page + 1
        self.hasMore = hasMore
    }

    private static func message(for error: any Error) -> String {
        if let urlError = error as? URLError {
            switch urlError.code {
            case .notConnectedToInternet, .networkConnectionLost:
                return "You're offline. Messages will load when you reconnect."
            case .timedOut:
                return "The server took too long to respond."
            default:
                break
            }
        }
        return "Couldn't load messages."
    }
}
