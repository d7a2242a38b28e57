import Foundation
import Observation

/// The search screen's list: keyset pagination, a per-query cache, pull to refresh, retry.
///
/// The view calls `loadNextPage()` from the list footer's `onAppear` (also for the first page),
/// `search(_:)` when the search text is submitted, `refresh()` from `.refreshable`, and
/// `retry()` from the error footer's button.
@MainActor
@Observable
public final class ItemSearchViewModel {
    public private(set) var query: String
    public private(set) var items: [SearchItem] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var errorMessage: String?

    /// Where the next request starts: the first page, or after the last item we have.
    private enum Position: Equatable {
        case firstPage
        case after(SearchItem.ID)
    }

    @ObservationIgnored private let repository: ItemSearchRepository
    @ObservationIgnored private let pageSize: Int
    @ObservationIgnored private var position: Position = .firstPage
    /// Identifies the one request whose answer we still want. Anything else is ignored.
    @ObservationIgnored private var activeRequest: UUID?
    /// Results shown per query, so going back to a search shows something at once.
    @ObservationIgnored private var cache: [String: [SearchItem]] = [:]

    public init(repository: ItemSearchRepository, query: String = "", pageSize: Int = 20) {
        self.repository = repository
        self.query = query
        self.pageSize = pageSize
    }

    // MARK: - Intents

    public func loadNextPage() {
        guard !isLoading, hasMore else { return }
        startRequest()
    }

    public func retry() {
        guard !isLoading else { return }
        errorMessage = nil
        loadNextPage()
    }

    public func search(_ text: String) {
        guard text != query else { return }
        query = text
        resetPagination()
        // Show what we had for this search while its first page reloads.
        items = cache[text] ?? []
        startRequest()
    }

    public func refresh() {
        // Keep the current rows on screen until the fresh first page arrives.
        resetPagination()
        startRequest()
    }

    // MARK: - Loading

    private func resetPagination() {
        activeRequest = nil       // answers to anything in flight are now stale
        isLoading = false
        hasMore = true
        errorMessage = nil
        position = .firstPage
    }

    private func startRequest() {
        let requestID = UUID()
        activeRequest = requestID
        isLoading = true

        let lastID: SearchItem.ID?
        switch position {
        case .firstPage: lastID = nil
        case .after(let id): lastID = id
        }

        repository.fetch(query: query, after: lastID, limit: pageSize) { [weak self] result in
            self?.handle(result, for: requestID)
        }
    }

    private func handle(_ result: Result<SearchPage, Error>, for requestID: UUID) {
        guard requestID == activeRequest else { return }   // stale or duplicate callback
        activeRequest = nil
        isLoading = false

        switch result {
        case .success(let page):
            apply(page)
        case .failure(let error) where Self.isCancellation(error):
            break   // not the user's problem; the next scroll or retry asks again
        case .failure(let error):
            errorMessage = Self.message(for: error)
        }
    }

    private func apply(_ page: SearchPage) {
        if position == .firstPage {
            items = []   // replaces cached rows or the list before a refresh
        }
        var indexByID = Dictionary(items.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var added = 0
        for item in page.items {
            if let index = indexByID[item.id] {
                items[index] = item          // the server sent it again: keep its place, take the fresher copy
            } else {
                indexByID[item.id] = items.count
                items.append(item)
                added += 1
            }
        }
        errorMessage = nil
        if let last = items.last {
            position = .after(last.id)
        }
        // With keyset pagination a page that adds nothing leaves `after` where it was: asking
        // again would return the same page forever, so treat it as the end.
        hasMore = page.hasMore && added > 0
        cache[query] = items
    }

    private static func isCancellation(_ error: Error) -> Bool {
        if error is CancellationError { return true }
        if let urlError = error as? URLError, urlError.code == .cancelled { return true }
        return false
    }

    private static func message(for error: Error) -> String {
        if let urlError = error as? URLError, urlError.code == .notConnectedToInternet {
            return "You're offline."
        }
        return "Couldn't load results."
    }
}
