import Foundation
import Observation

// MARK: - Supporting types

/// One row of the ticket search results.
struct QueryTextTicketItem: Identifiable, Sendable, Hashable {
    let id: String
}

/// One page of results as returned by the paginated search API.
struct QueryTextTicketPage: Sendable {
    var items: [QueryTextTicketItem]
    var hasMore: Bool

    init(items: [QueryTextTicketItem], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }
}

// MARK: - View model

/// View model for the ticket search-results screen.
///
/// Drives a page-numbered (1-based) search API: `loadMore()` is the
/// bottom-of-list trigger (and the very first load), `retry()` re-requests the
/// page that failed, `setQuery(_:)` switches the search filter and
/// `refresh()` is pull-to-refresh of the current query. Results are
/// de-duplicated by `id`, and automatic paging stops after
/// ``maxConsecutiveEmptyPages`` accepted pages in a row that add nothing new
/// while the server still claims `hasMore`.
///
/// Known bug (intentional): responses are recognised only by the query *text*
/// they were requested for — there is no generation counter or request ID.
/// After switching filters A → B → A, a late answer to the first A request is
/// accepted as if it belonged to the current A load.
@MainActor
@Observable
final class QueryTextTicketSearchModel {

    typealias Fetch = @Sendable (_ query: String, _ page: Int) async throws -> QueryTextTicketPage

    // MARK: Observable state

    private(set) var items: [QueryTextTicketItem] = []
    private(set) var isLoading = false
    private(set) var hasMore = true
    private(set) var errorMessage: String?
    private(set) var currentQuery: String

    var visibleIDs: [String] { items.map(\.id) }

    // MARK: Private state

    /// Accepted pages in a row that added no new item while `hasMore` was true
    /// after which automatic loading is stopped.
    static let maxConsecutiveEmptyPages = 3

    private let fetch: Fetch

    /// Next page to request; only advanced when a page is accepted, so after a
    /// failure it still points at the page that failed.
    @ObservationIgnored private var nextPage = 1
    @ObservationIgnored private var consecutiveEmptyPages = 0
    @ObservationIgnored private var loadTask: Task<Void, Never>?

    // MARK: Init

    init(query: String, fetch: @escaping @Sendable (String, Int) async throws -> QueryTextTicketPage) {
        self.currentQuery = query
        self.fetch = fetch
    }

    // MARK: Triggers

    /// Bottom-of-list trigger; also performs the very first load.
    func loadMore() async {
        guard !isLoading, hasMore, errorMessage == nil else { return }
        await load(page: nextPage)
    }

    /// Clears the error and requests the page that failed once more.
    func retry() async {
        guard errorMessage != nil, !isLoading else { return }
        errorMessage = nil
        await load(page: nextPage)
    }

    /// The user changed the search filter: drop everything and load page 1.
    func setQuery(_ query: String) async {
        currentQuery = query
        resetResults()
        await load(page: 1)
    }

    /// Pull-to-refresh of the current query.
    func refresh() async {
        resetResults()
        await load(page: 1)
    }

    // MARK: Loading

    private func resetResults() {
        loadTask?.cancel()
        loadTask = nil
        items = []
        nextPage = 1
        consecutiveEmptyPages = 0
        hasMore = true
        errorMessage = nil
        isLoading = false
    }

    /// Starts the fetch for `page` of the current query in a stored task and
    /// waits until its result has been handled.
    private func load(page: Int) async {
        let requestedQuery = currentQuery
        let fetch = self.fetch
        isLoading = true
        errorMessage = nil

        let task = Task { [weak self] in
            let outcome: Result<QueryTextTicketPage, any Error>
            do {
                outcome = .success(try await fetch(requestedQuery, page))
            } catch {
                outcome = .failure(error)
            }
            self?.handle(outcome, requestedQuery: requestedQuery, page: page)
        }
        loadTask = task
        await task.value
    }

    private func handle(
        _ outcome: Result<QueryTextTicketPage, any Error>,
        requestedQuery: String,
        page: Int
    ) {
        // BUG: the response is matched to the current load by query text only.
        // There is no generation counter / request ID, so after A → B → A a
        // late (even cancelled) answer to the first A request passes this check
        // and is applied as if it answered the current A load.
        guard requestedQuery == currentQuery else { return }

        isLoading = false
        switch outcome {
        case .success(let result):
            accept(result, page: page)
        case .failure(let error):
            // Items are kept and the page is not advanced, so retry() asks for
            // the same page. Cancellation for the current query counts too.
            errorMessage = Self.message(for: error)
        }
    }

    private func accept(_ result: QueryTextTicketPage, page: Int) {
        let fresh = newItems(in: result.items)
        items.append(contentsOf: fresh)
        nextPage = page + 1

        if fresh.isEmpty && result.hasMore {
            consecutiveEmptyPages += 1
        } else {
            consecutiveEmptyPages = 0
        }
        hasMore = result.hasMore && consecutiveEmptyPages < Self.maxConsecutiveEmptyPages
    }

    /// Items not yet shown, de-duplicated within the page as well; the first
    /// occurrence wins and server order is kept.
    private func newItems(in pageItems: [QueryTextTicketItem]) -> [QueryTextTicketItem] {
        var seen = Set(items.map(\.id))
        return pageItems.filter { seen.insert($0.id).inserted }
    }

    private static func message(for error: any Error) -> String {
        if error is CancellationError {
            return "Loading was interrupted. Tap to try again."
        }
        if let urlError = error as? URLError, urlError.code == .cancelled {
            return "Loading was interrupted. Tap to try again."
        }
        let description = error.localizedDescription
        return description.isEmpty ? "Something went wrong. Tap to try again." : description
    }
}
