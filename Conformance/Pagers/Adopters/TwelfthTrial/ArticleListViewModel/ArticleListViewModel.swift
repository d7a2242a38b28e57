import Foundation
import Observation

/// Drives the searchable, infinitely scrolling article list.
///
/// The view calls `loadNextPage()` when the bottom sentinel appears (and once from `.task`
/// for the first page), `search(_:)` when the search text is submitted, `refresh()` from
/// pull-to-refresh and `retry()` from the error footer.
///
/// Every load gets a request ID. A search or refresh cancels the running load and makes its
/// ID stale, so whatever that load returns later (data, an error or a cancellation) is dropped.
@MainActor
@Observable
final class ArticleListViewModel {
    enum Phase: Equatable {
        case idle
        case loadingFirstPage
        case loadingNextPage
        case failed(message: String)
        case exhausted
    }

    private(set) var articles: [Article] = []
    private(set) var phase: Phase = .idle
    private(set) var query: String
    /// Why loading stopped early when the server's paging misbehaved; `nil` for a normal end.
    private(set) var stallReason: ArticlePagingError?

    var isLoading: Bool { phase == .loadingFirstPage || phase == .loadingNextPage }
    var hasMore: Bool { phase != .exhausted }
    var errorMessage: String? {
        if case .failed(let message) = phase { return message }
        return nil
    }

    @ObservationIgnored private let service: any ArticleFetching
    @ObservationIgnored private let noProgressLimit: Int

    /// Cursor of the next page to request; `nil` means the query's first page.
    @ObservationIgnored private var nextCursor: String?
    @ObservationIgnored private var seenIDs: Set<String> = []
    /// Cursors already requested for the current query, to catch a server that loops.
    @ObservationIgnored private var followedCursors: Set<String> = []
    @ObservationIgnored private var pagesWithoutNewItems = 0

    @ObservationIgnored private var loadTask: Task<Void, Never>?
    @ObservationIgnored private var lastRequestID = 0
    @ObservationIgnored private var activeRequestID: Int?

    init(service: any ArticleFetching, query: String = "", noProgressLimit: Int = 3) {
        self.service = service
        self.query = query
        self.noProgressLimit = noProgressLimit
    }

    // MARK: - Triggers

    /// Loads the next page (the first one if nothing is loaded yet).
    ///
    /// Ignored while a page is loading, after an error (the footer offers `retry()`) and at the
    /// end of the list.
    func loadNextPage() async {
        guard phase == .idle else { return }
        await startLoad(cursor: nextCursor)
    }

    /// Requests the page that failed (or was interrupted) again.
    func retry() async {
        switch phase {
        case .failed, .idle:
            await startLoad(cursor: nextCursor)
        case .loadingFirstPage, .loadingNextPage, .exhausted:
            return
        }
    }

    /// Switches to a new search query: drops the current results and loads its first page.
    func search(_ newQuery: String) async {
        cancelInFlightLoad()
        query = newQuery
        articles = []
        seenIDs = []
        resetPaging()
        await startLoad(cursor: nil)
    }

    /// Pull-to-refresh: reloads the first page of the current query. The old articles stay on
    /// screen until the new first page replaces them.
    func refresh() async {
        cancelInFlightLoad()
        resetPaging()
        await startLoad(cursor: nil)
    }

    // MARK: - Loading

    private func startLoad(cursor: String?) async {
        lastRequestID += 1
        let requestID = lastRequestID
        activeRequestID = requestID
        phase = cursor == nil ? .loadingFirstPage : .loadingNextPage

        let query = self.query
        let task = Task {
            await self.performLoad(requestID: requestID, query: query, cursor: cursor)
        }
        loadTask = task
        await task.value
    }

    private func performLoad(requestID: Int, query: String, cursor: String?) async {
        let result: Result<ArticlePage, any Error>
        do {
            result = .success(try await service.fetch(query: query, cursor: cursor))
        } catch {
            result = .failure(error)
        }

        // A search or refresh may have replaced this request while we were suspended.
        guard !Task.isCancelled, requestID == activeRequestID else { return }
        activeRequestID = nil
        loadTask = nil

        switch result {
        case .success(let page):
            apply(page, requestedCursor: cursor)
        case .failure(let error) where Self.isCancellation(error):
            // Nobody asked for this cancellation; leave the page to be requested again.
            phase = .idle
        case .failure(let error):
            phase = .failed(message: Self.message(for: error))
        }
    }

    private func apply(_ page: ArticlePage, requestedCursor: String?) {
        if requestedCursor == nil {
            // First page of a search or refresh replaces whatever was shown.
            seenIDs = []
            articles = []
        }
        let newArticles = page.items.filter { seenIDs.insert($0.id).inserted }
        articles.append(contentsOf: newArticles)

        if let requestedCursor {
            followedCursors.insert(requestedCursor)
        }
        guard let cursor = page.nextCursor else {
            nextCursor = nil
            phase = .exhausted
            return
        }
        if cursor == requestedCursor || followedCursors.contains(cursor) {
            stop(because: .repeatedCursor(cursor))
            return
        }
        pagesWithoutNewItems = newArticles.isEmpty ? pagesWithoutNewItems + 1 : 0
        if pagesWithoutNewItems >= noProgressLimit {
            stop(because: .noProgress)
            return
        }
        nextCursor = cursor
        phase = .idle
    }

    private func stop(because reason: ArticlePagingError) {
        stallReason = reason
        phase = .exhausted
    }

    private func cancelInFlightLoad() {
        loadTask?.cancel()
        loadTask = nil
        activeRequestID = nil
    }

    private func resetPaging() {
        nextCursor = nil
        followedCursors = []
        pagesWithoutNewItems = 0
        stallReason = nil
        phase = .idle
    }

    // MARK: - Errors

    private static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let urlError = error as? URLError, urlError.code == .cancelled { return true }
        return false
    }

    private static func message(for error: any Error) -> String {
        if let urlError = error as? URLError, urlError.code == .notConnectedToInternet {
            return "You're offline. Check your connection and try again."
        }
        return "Couldn't load articles. Try again."
    }
}
