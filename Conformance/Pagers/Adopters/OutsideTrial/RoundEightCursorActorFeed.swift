// From an outside trial (round eight): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation
import Observation

struct RoundEightMessage: Identifiable, Hashable, Sendable {
    let id: Int
    var text: String
}

struct RoundEightCursorPage: Sendable {
    var messages: [RoundEightMessage]
    /// nil when there is nothing after this page.
    var nextCursor: String?
}

/// What the UI needs from the pager, copied out of the actor.
struct RoundEightCursorFeedState: Sendable, Equatable {
    var version = 0
    var query = ""
    var messages: [RoundEightMessage] = []
    var isLoading = false
    var hasMore = true
    var errorText: String?
    var isStalled = false
}

/// Cursor pager. All paging state lives here; the view model only mirrors it.
actor RoundEightCursorPager {
    typealias Fetch = @Sendable (_ query: String, _ cursor: String?) async throws -> RoundEightCursorPage
    typealias Observer = @MainActor @Sendable (RoundEightCursorFeedState) -> Void

    private let fetch: Fetch
    private let observer: Observer

    private var query: String
    private var generation = 0
    private var cursor: String?
    private var seenCursors: Set<String> = []
    private var seenIDs: Set<Int> = []
    private var messages: [RoundEightMessage] = []
    private var isLoading = false
    private var hasMore = true
    private var errorText: String?
    private var isStalled = false
    private var replaceOnNextPage = false
    private var version = 0

    init(query: String = "", fetch: @escaping Fetch, observer: @escaping Observer) {
        self.query = query
        self.fetch = fetch
        self.observer = observer
    }

    var state: RoundEightCursorFeedState {
        RoundEightCursorFeedState(
            version: version, query: query, messages: messages, isLoading: isLoading,
            hasMore: hasMore, errorText: errorText, isStalled: isStalled)
    }

    func loadNext() async {
        guard !isLoading, hasMore, !isStalled else { return }
        isLoading = true
        errorText = nil
        let generation = self.generation
        let cursor = self.cursor
        let query = self.query
        await publish()

        do {
            let page = try await fetch(query, cursor)
            guard generation == self.generation else { return }  // another search/refresh won
            isLoading = false
            if replaceOnNextPage {
                messages = []
                seenIDs = []
                replaceOnNextPage = false
            }
            for message in page.messages where seenIDs.insert(message.id).inserted {
                messages.append(message)
            }
            if let next = page.nextCursor {
                if next == cursor || seenCursors.contains(next) {
                    // The server keeps handing out a cursor we've already used: stop paging
                    // rather than spin forever.
                    isStalled = true
                    hasMore = false
                } else {
                    seenCursors.insert(next)
                    self.cursor = next
                    hasMore = true
                }
            } else {
                hasMore = false
            }
        } catch {
            guard generation == self.generation else { return }
            isLoading = false
            if !(error is CancellationError) {
                errorText = "Couldn't load messages."
            }
        }
        await publish()
    }

    func search(_ text: String) async {
        guard text != query else { return }
        query = text
        startOver()
        messages = []
        seenIDs = []
        await publish()
        await loadNext()
    }

    func refresh() async {
        startOver()
        replaceOnNextPage = true  // keep what's on screen until the first page is back
        await publish()
        await loadNext()
    }

    private func startOver() {
        generation += 1
        cursor = nil
        seenCursors = []
        isLoading = false
        hasMore = true
        isStalled = false
        errorText = nil
    }

    private func publish() async {
        version += 1
        let snapshot = state
        await observer(snapshot)
    }
}

/// Thin view model for the message search screen.
@MainActor
@Observable
final class RoundEightCursorFeedViewModel {
    private(set) var state = RoundEightCursorFeedState()

    @ObservationIgnored private var pager: RoundEightCursorPager!

    init(query: String = "", fetch: @escaping RoundEightCursorPager.Fetch) {
        state.query = query
        pager = RoundEightCursorPager(query: query, fetch: fetch) { [weak self] snapshot in
            self?.apply(snapshot)
        }
    }

    var messages: [RoundEightMessage] { state.messages }
    var isLoading: Bool { state.isLoading }
    var hasMore: Bool { state.hasMore }
    var showsError: Bool { state.errorText != nil }
    var isStalled: Bool { state.isStalled }

    func onScrolledToBottom() async {
        await pager.loadNext()
        apply(await pager.state)
    }

    func retry() async {
        await onScrolledToBottom()
    }

    func search(_ text: String) async {
        await pager.search(text)
        apply(await pager.state)
    }

    func pullToRefresh() async {
        await pager.refresh()
        apply(await pager.state)
    }

    private func apply(_ snapshot: RoundEightCursorFeedState) {
        // Publishes from different tasks can land out of order; keep the newest.
        guard snapshot.version >= state.version else { return }
        state = snapshot
    }
}
