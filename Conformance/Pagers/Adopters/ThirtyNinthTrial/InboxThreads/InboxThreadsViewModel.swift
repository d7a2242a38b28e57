import Foundation
import Observation

// MARK: - Model

struct MessageThread: Identifiable, Hashable, Sendable {
    let id: String
    var subject: String
    var preview: String
    var unreadCount: Int
}

struct ThreadsPage: Sendable {
    var threads: [MessageThread]
    var hasMore: Bool
}

/// The inbox API. Pages are numbered from 1.
protocol ThreadsService: Sendable {
    func threads(folder: String, page: Int) async throws -> ThreadsPage
}

// MARK: - View model

/// The thread list of one mail folder, loaded page by page.
///
/// The view calls `onAppear()` from `.task`, `loadNextPage()` when the last row appears,
/// `retry()` from the error footer, `refresh()` from `.refreshable` and `select(folder:)` from
/// the folder picker. Every trigger awaits the request it starts.
@Observable
@MainActor
final class InboxThreadsViewModel {
    // What the view shows.
    private(set) var threads: [MessageThread] = []
    private(set) var isLoading = false
    private(set) var errorMessage: String?
    private(set) var hasMore = true
    private(set) var folder: String

    // Where the list stands: everything a refresh or a folder change starts afresh.
    private struct Position {
        var nextPage = 1
        var hasMore = true
        var seenIDs: Set<MessageThread.ID> = []
        /// True while `threads` still shows an earlier list (kept during a refresh) that this
        /// list's first page will replace.
        var replacesVisibleThreads = false
    }

    // What the list looked like before a refresh whose first page has not arrived yet.
    private struct PreRefreshState {
        var threads: [MessageThread]
        var position: Position
    }

    private struct RequestToken: Equatable {
        let id: Int
        let generation: Int
        let page: Int
    }

    @ObservationIgnored private let service: any ThreadsService
    @ObservationIgnored private var position = Position()
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var lastRequestID = 0
    @ObservationIgnored private var inFlight: RequestToken?
    /// The request `refresh()` started, while it is the one in flight.
    @ObservationIgnored private var refreshRequest: RequestToken?
    /// Set by `refresh()`, cleared once the refreshed list's first page arrives or fails.
    @ObservationIgnored private var beforeRefresh: PreRefreshState?

    init(service: any ThreadsService, folder: String = "Inbox") {
        self.service = service
        self.folder = folder
    }

    // MARK: Triggers

    /// First appearance of the list: loads the first page if nothing is there yet.
    func onAppear() async {
        guard threads.isEmpty, !isLoading, errorMessage == nil else { return }
        await loadNextPage()
    }

    /// The bottom of the list was reached.
    func loadNextPage() async {
        guard inFlight == nil, errorMessage == nil, position.hasMore else { return }
        await load(page: position.nextPage)
    }

    /// The error footer's "Try again": asks for the page that failed.
    func retry() async {
        guard inFlight == nil, position.hasMore else { return }
        errorMessage = nil
        await load(page: position.nextPage)
    }

    /// Pull to refresh. The threads already shown stay visible until the first page of the
    /// refreshed list arrives. If the refresh itself is cancelled (the user left the screen,
    /// `.refreshable` was cancelled), the list goes back to what it was before.
    func refresh() async {
        if beforeRefresh == nil {
            beforeRefresh = PreRefreshState(threads: threads, position: position)
        }
        startNewList(keepingVisibleThreads: true)
        await load(page: 1, isRefresh: true)
    }

    /// The user picked another folder.
    func select(folder newFolder: String) async {
        guard newFolder != folder else { return }
        folder = newFolder
        beforeRefresh = nil
        startNewList(keepingVisibleThreads: false)
        await load(page: 1)
    }

    // MARK: Loading

    private func startNewList(keepingVisibleThreads: Bool) {
        generation += 1
        inFlight = nil
        refreshRequest = nil
        isLoading = false
        errorMessage = nil
        position = Position()
        if keepingVisibleThreads {
            position.replacesVisibleThreads = true
        } else {
            threads = []
        }
        hasMore = position.hasMore
    }

    private func load(page: Int, isRefresh: Bool = false) async {
        lastRequestID += 1
        let token = RequestToken(id: lastRequestID, generation: generation, page: page)
        inFlight = token
        refreshRequest = isRefresh ? token : nil
        isLoading = true

        let result: Result<ThreadsPage, any Error>
        do {
            result = .success(try await service.threads(folder: folder, page: page))
        } catch {
            result = .failure(error)
        }

        // Anything but the answer to the request in flight (an older folder, a request from
        // before a refresh) is ignored, whatever it carries.
        guard token == inFlight else { return }
        let wasRefresh = token == refreshRequest
        inFlight = nil
        refreshRequest = nil
        isLoading = false

        switch result {
        case .success(let page):
            apply(page)
        case .failure(let error) where Self.isCancellation(error):
            if wasRefresh, let previous = beforeRefresh {
                restore(previous)
            }
            // Otherwise a cancelled page is not an error to show: the next trigger asks again.
        case .failure(let error):
            // The refreshed list is now the current one: its first page is what failed.
            beforeRefresh = nil
            errorMessage = Self.message(for: error)
        }
    }

    private func apply(_ page: ThreadsPage) {
        beforeRefresh = nil
        if position.replacesVisibleThreads {
            threads = []
            position.replacesVisibleThreads = false
        }
        for thread in page.threads where !position.seenIDs.contains(thread.id) {
            position.seenIDs.insert(thread.id)
            threads.append(thread)
        }
        position.nextPage += 1
        position.hasMore = page.hasMore
        hasMore = page.hasMore
        errorMessage = nil
    }

    /// Back to the list shown before an abandoned refresh: same threads, same next page,
    /// same end of list, no error.
    private func restore(_ previous: PreRefreshState) {
        beforeRefresh = nil
        generation += 1  // nothing from before the refresh may land on the restored list
        threads = previous.threads
        position = previous.position
        hasMore = position.hasMore
        errorMessage = nil
    }

    private static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let urlError = error as? URLError, urlError.code == .cancelled { return true }
        return false
    }

    private static func message(for error: any Error) -> String {
        if let urlError = error as? URLError, urlError.code == .notConnectedToInternet {
            return "You're offline. Check your connection and try again."
        }
        return "Couldn't load conversations. Try again."
    }
}
