import Foundation
import Observation

/// One row of the search screen.
struct SearchHit: Identifiable, Hashable, Sendable {
    let id: String
    let title: String
}

/// One page of `GET /search?q=…&cursor=…`. The API has no `hasMore`: a `nil` cursor ends the
/// results.
struct Trial22SearchResultsPage: Sendable {
    let hits: [SearchHit]
    let nextCursor: String?
}

/// The search endpoint; a `nil` cursor asks for the first page.
typealias SearchEndpoint = @Sendable (_ query: String, _ cursor: String?) async throws -> Trial22SearchResultsPage

/// The search screen: a debounced query, cursor paging, "Retry" in the footer, pull to
/// refresh, and a list that fills the visible rows by itself after each page.
@Observable
@MainActor
final class SearchResultsViewModel {
    enum Stall: Equatable, Sendable {
        case repeatedCursor  // the server handed back a cursor this search already asked for
        case noNewResults  // pages in a row added nothing while the server said there was more
    }

    private enum Position: Equatable {
        case firstPage
        case after(String)
        case end

        var cursor: String? {
            if case .after(let cursor) = self { return cursor }
            return nil
        }
    }

    private(set) var searchText: String
    private(set) var hits: [SearchHit] = []
    private(set) var isLoading = false
    private(set) var isRefreshing = false
    private(set) var errorMessage: String?
    private(set) var stall: Stall?
    private var position: Position = .firstPage

    /// Rows the list needs before it stops loading by itself (one screen of the layout).
    var minimumVisibleRows: Int

    /// What the server said last: more results exist after the ones shown.
    var hasMoreResults: Bool { position != .end }

    /// Whether a bottom trigger, a retry or a fill may request another page.
    var canLoadMore: Bool { position != .end && stall == nil && isSearchable(searchText) }

    private let endpoint: SearchEndpoint
    private let clock: any Clock<Duration>
    private let debounce: Duration
    private let minimumQueryLength: Int
    private let noProgressLimit: Int

    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var requestedCursors: Set<String> = []
    @ObservationIgnored private var shownIDs: Set<String> = []
    @ObservationIgnored private var pagesWithoutNewHits = 0
    @ObservationIgnored private var replacesHitsOnNextPage = false
    @ObservationIgnored private var loadTask: Task<Void, Never>?
    @ObservationIgnored private var debounceTask: Task<Void, Never>?

    init(
        searchText: String = "",
        endpoint: @escaping SearchEndpoint,
        clock: any Clock<Duration> = ContinuousClock(),
        debounce: Duration = .milliseconds(300),
        minimumVisibleRows: Int = 20,
        minimumQueryLength: Int = 2,
        noProgressLimit: Int = 3
    ) {
        self.searchText = searchText
        self.endpoint = endpoint
        self.clock = clock
        self.debounce = debounce
        self.minimumVisibleRows = minimumVisibleRows
        self.minimumQueryLength = minimumQueryLength
        self.noProgressLimit = noProgressLimit
    }

    // MARK: - Events from the view

    /// The search field changed (SwiftUI: `.task(id: text) { await model.searchTextChanged(to: text) }`).
    /// Everything the old search owned is reset on the keystroke; the first page is requested
    /// when the debounce ends. Returns once that page (and any fill) is handled.
    func searchTextChanged(to text: String) async {
        guard text != searchText else { return }
        searchText = text
        debounceTask?.cancel()
        debounceTask = nil
        beginGeneration(keepingHits: false)
        guard isSearchable(text) else { return }  // the screen shows the "type to search" hint

        let generation = self.generation
        let task = Task { [clock = self.clock, debounce = self.debounce] in
            do {
                try await clock.sleep(for: debounce)
            } catch {
                return  // a newer keystroke cancelled this one
            }
            guard generation == self.generation else { return }
            await self.loadAndWait()
        }
        debounceTask = task
        await task.value
    }

    /// The bottom sentinel appeared; also the screen's first load.
    func loadNextPage() async {
        guard errorMessage == nil else { return }  // the footer shows "Retry" instead
        await loadAndWait()
    }

    /// The footer's "Retry" button.
    func retry() async {
        errorMessage = nil
        await loadAndWait()
    }

    /// Pull to refresh (`.refreshable`): a new generation; the results stay on screen until
    /// the new first page replaces them.
    func refresh() async {
        debounceTask?.cancel()
        debounceTask = nil
        beginGeneration(keepingHits: true)
        guard isSearchable(searchText) else { return }
        isRefreshing = true
        await loadAndWait()
    }

    /// The list's height changed (rotation, Split View): load pages until `minimumVisibleRows`
    /// rows show (nothing if they already do).
    func fillVisibleRows() async {
        guard errorMessage == nil, hits.count < minimumVisibleRows else { return }
        await loadAndWait()
    }

    // MARK: - Loading

    private func beginGeneration(keepingHits: Bool) {
        generation += 1
        loadTask?.cancel()
        loadTask = nil
        isLoading = false
        isRefreshing = false
        errorMessage = nil
        stall = nil
        position = .firstPage
        requestedCursors = []
        pagesWithoutNewHits = 0
        if keepingHits {
            replacesHitsOnNextPage = true
        } else {
            hits = []
            shownIDs = []
            replacesHitsOnNextPage = false
        }
    }

    /// Starts the page loop unless one is running (a second trigger is ignored), then waits.
    private func loadAndWait() async {
        guard loadTask == nil, canLoadMore else { return }
        let generation = self.generation
        isLoading = true
        let task = Task { await self.loadPages(generation: generation) }
        loadTask = task
        await task.value
    }

    /// Loads the next page, then keeps going while the screen is not full. Each page is
    /// committed before the next is requested; nothing is written once the generation moved on.
    private func loadPages(generation: Int) async {
        while true {
            let cursor = position.cursor
            if let cursor { requestedCursors.insert(cursor) }
            let result: Result<Trial22SearchResultsPage, any Error>
            do {
                let page = try await endpoint(searchText, cursor)
                result = .success(page)
            } catch {
                result = .failure(error)
            }
            guard generation == self.generation else { return }  // a newer search or refresh owns the list

            switch result {
            case .failure(let error):
                finishLoading()
                if !(error is CancellationError) {
                    errorMessage = "Couldn't load results. Check your connection and try again."
                }
                return
            case .success(let page):
                commit(page)
            }
            guard canLoadMore, hits.count < minimumVisibleRows else { break }
        }
        finishLoading()
    }

    private func commit(_ page: Trial22SearchResultsPage) {
        if replacesHitsOnNextPage {
            hits = []
            shownIDs = []
            replacesHitsOnNextPage = false
        }
        var newHits: [SearchHit] = []
        for hit in page.hits where shownIDs.insert(hit.id).inserted {
            newHits.append(hit)
        }
        hits.append(contentsOf: newHits)

        guard let next = page.nextCursor else {
            position = .end
            return
        }
        if requestedCursors.contains(next) {
            stall = .repeatedCursor  // the same cursor again, or an earlier one: a loop
            return
        }
        position = .after(next)
        pagesWithoutNewHits = newHits.isEmpty ? pagesWithoutNewHits + 1 : 0
        if pagesWithoutNewHits >= noProgressLimit {
            stall = .noNewResults
        }
    }

    private func finishLoading() {
        loadTask = nil
        isLoading = false
        isRefreshing = false
    }

    private func isSearchable(_ text: String) -> Bool {
        text.trimmingCharacters(in: .whitespacesAndNewlines).count >= minimumQueryLength
    }
}
