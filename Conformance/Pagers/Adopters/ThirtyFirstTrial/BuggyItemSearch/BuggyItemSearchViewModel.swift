import Foundation
import Observation

/// The search screen's state: results of one query, loaded page by page after the last item's
/// ID (keyset), with the rows of every query searched before kept in memory so that going back
/// to a query shows something at once.
///
/// The mutant: an answer is taken whenever the screen is loading and the answer's query is the
/// one on screen. It does not tell the request in flight from an older one of the same query
/// (an earlier page before a refresh, an earlier visit of the same text, a page delivered twice).
@MainActor
@Observable
public final class BuggyItemSearchViewModel {
    /// The rows on screen.
    public private(set) var items: [SearchItem] = []
    /// A page is on its way.
    public private(set) var isLoading = false
    /// The list has not ended (the footer spinner shows).
    public private(set) var hasMore = true
    /// What the error footer says, or nil.
    public private(set) var errorMessage: String?
    /// The text searched for.
    public private(set) var query: String

    @ObservationIgnored private let repository: any ItemSearchRepository
    @ObservationIgnored private let pageSize: Int
    /// Rows last shown per query, shown again at once when the user searches it again.
    @ObservationIgnored private var rowsByQuery: [String: [SearchItem]] = [:]
    /// IDs of the current list, for de-duplication across pages.
    @ObservationIgnored private var seenIDs: Set<SearchItem.ID> = []
    /// The next load starts the list over (a search or refresh whose first page has not come).
    @ObservationIgnored private var startsOver = true

    public init(repository: some ItemSearchRepository, query: String, pageSize: Int = 20) {
        self.repository = repository
        self.query = query
        self.pageSize = pageSize
    }

    // MARK: - What the view calls

    /// The user scrolled to the bottom; also the list's first load.
    public func loadNextPage() async {
        guard !isLoading else { return }
        guard startsOver || hasMore else { return }
        fetchPage()
    }

    /// The search field changed: show what this query showed before, then load it afresh.
    public func search(_ text: String) async {
        query = text
        items = rowsByQuery[text] ?? []
        seenIDs = Set(items.map(\.id))
        hasMore = true
        errorMessage = nil
        startsOver = true
        fetchPage()
    }

    /// Pull to refresh: the rows stay until the new first page replaces them.
    public func refresh() async {
        hasMore = true
        errorMessage = nil
        startsOver = true
        fetchPage()
    }

    /// The error footer's "Try again".
    public func retry() async {
        guard !isLoading else { return }
        errorMessage = nil
        guard startsOver || hasMore else { return }
        fetchPage()
    }

    // MARK: - Loading

    private func fetchPage() {
        let requestQuery = query
        let replacesRows = startsOver
        let lastID = replacesRows ? nil : items.last?.id
        isLoading = true
        errorMessage = nil
        repository.fetch(query: requestQuery, after: lastID, limit: pageSize) { [weak self] result in
            guard let self else { return }
            // Is this the answer we are waiting for?
            guard self.isLoading, requestQuery == self.query else { return }
            self.isLoading = false
            switch result {
            case .success(let page):
                self.apply(page, replacingRows: replacesRows)
            case .failure(let error):
                if !(error is CancellationError) {
                    self.errorMessage = "Couldn't load results. Check your connection and try again."
                }
            }
        }
    }

    private func apply(_ page: SearchPage, replacingRows: Bool) {
        if replacingRows {
            items = []
            seenIDs = []
            startsOver = false
        }
        var added = 0
        for item in page.items where seenIDs.insert(item.id).inserted {
            items.append(item)
            added += 1
        }
        // Keyset: a page with nothing new cannot move the position, so the list ends there.
        hasMore = page.hasMore && added > 0
        rowsByQuery[query] = items
    }
}
