import Foundation

struct ActivityEntry: Identifiable, Hashable, Sendable {
    let id: String
    let summary: String
}

/// One page of `GET /activity?filter=…&cursor=…`.
struct ActivityLogPage: Sendable {
    let entries: [ActivityEntry]
    let nextCursor: String?
    let hasMore: Bool
}

/// What the activity screen renders.
struct ActivityViewState: Sendable, Equatable {
    var entryIDs: [String]
    var isLoading: Bool
    var hasMore: Bool
    /// The error footer ("Couldn't load more. Retry") is visible, with this text.
    var errorMessage: String?
    /// The footer shows a spinner in place of its button while its retry runs.
    var isRetrying: Bool
    /// The server handed back the cursor it was sent: loading stopped.
    var hitCursorStall: Bool
}

/// The account's activity log, paged by cursor. An actor so that the list screen, the widget
/// refresh and the notification handler can all share one copy.
actor ActivityLogStore {
    typealias Fetch = @Sendable (_ filter: String, _ cursor: String?) async throws -> ActivityLogPage

    private struct Failure: Sendable {
        let cursor: String?
        let message: String
        var isRetrying = false
    }

    private let fetch: Fetch
    private(set) var filter: String
    private var entries: [ActivityEntry] = []
    private var seenIDs: Set<String> = []
    private var nextCursor: String?
    private var hasMore = true
    private var isLoading = false
    private var failure: Failure?
    private var hitCursorStall = false
    /// Bumped by every filter change; a load whose generation is old is dropped on arrival.
    private var generation = 0

    init(filter: String, fetch: @escaping Fetch) {
        self.filter = filter
        self.fetch = fetch
    }

    var viewState: ActivityViewState {
        ActivityViewState(
            entryIDs: entries.map(\.id),
            isLoading: isLoading,
            hasMore: hasMore,
            errorMessage: failure?.message,
            isRetrying: failure?.isRetrying ?? false,
            hitCursorStall: hitCursorStall)
    }

    /// The bottom of the list became visible (also the first load). While the error footer is up,
    /// scrolling to the bottom asks for the failed page again: the cursor never moved.
    func loadMore() async {
        guard !isLoading, hasMore, !hitCursorStall else { return }
        failure = nil
        await load(cursor: nextCursor)
    }

    /// The footer's "Retry" button. The footer stays up (with a spinner) until the retried page is
    /// in, so it does not flicker away and back.
    func retry() async {
        guard !isLoading, var retried = failure else { return }
        retried.isRetrying = true
        failure = retried
        let generation = self.generation
        await load(cursor: retried.cursor)
        guard generation == self.generation else { return }  // the filter changed meanwhile: not our footer any more
        failure = nil  // the retried page is in: drop the footer
    }

    /// A filter was picked: a new list from the first page. A load still running for the old
    /// filter is left to finish; its answer is dropped.
    func setFilter(_ newFilter: String) async {
        guard newFilter != filter else { return }
        filter = newFilter
        generation += 1
        entries = []
        seenIDs = []
        nextCursor = nil
        hasMore = true
        failure = nil
        hitCursorStall = false
        await load(cursor: nil)
    }

    private func load(cursor: String?) async {
        let generation = self.generation
        isLoading = true
        do {
            let page = try await fetch(filter, cursor)
            guard generation == self.generation else { return }
            isLoading = false
            apply(page, requestedCursor: cursor)
        } catch {
            guard generation == self.generation else { return }
            isLoading = false
            let message = error is CancellationError
                ? "Loading was interrupted."
                : "Couldn't load more activity."
            failure = Failure(cursor: cursor, message: message)
        }
    }

    private func apply(_ page: ActivityLogPage, requestedCursor: String?) {
        entries += page.entries.filter { seenIDs.insert($0.id).inserted }
        if page.hasMore && page.nextCursor == requestedCursor {
            // The server sent back the cursor we asked with: following it would fetch this page forever.
            hitCursorStall = true
        }
        nextCursor = page.nextCursor
        hasMore = page.hasMore && page.nextCursor != nil
    }
}
