import Foundation
import Observation

/// One hit of `GET /search?q=…&page=…`.
struct SearchResult: Identifiable, Hashable, Sendable {
    let id: Int
    var title: String
}

/// One page of search results; pages are numbered from 1.
struct SearchResultsPage: Sendable {
    var results: [SearchResult]
    var hasMore: Bool
}

/// The search screen's view model: numbered pages, a search field, pull-to-refresh, and a
/// footer that shows the spinner, "Retry" or "No more results".
@MainActor
@Observable
final class SearchResultsModel {
    typealias Loader = @Sendable (_ query: String, _ page: Int) async throws -> SearchResultsPage

    private(set) var query: String
    private(set) var results: [SearchResult] = []
    /// Drives the footer: the bottom sentinel is shown only while this is true.
    private(set) var canLoadMore = true
    private(set) var errorMessage: String?

    /// The page being loaded, if any. A response is applied only if its ticket is still this one.
    private var inFlight: Ticket?
    var isLoading: Bool { inFlight != nil }

    @ObservationIgnored private let loader: Loader
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var nextPage = 1
    @ObservationIgnored private var seenIDs: Set<Int> = []

    private struct Ticket: Equatable {
        let generation: Int
        let page: Int
    }

    init(query: String, loader: @escaping Loader) {
        self.query = query
        self.loader = loader
    }

    // MARK: - Triggers

    /// The bottom sentinel's `onAppear` (also the first load, from `.task`).
    func loadNextPage() async {
        guard inFlight == nil, errorMessage == nil, canLoadMore else { return }
        await load(Ticket(generation: generation, page: nextPage))
    }

    /// The footer's "Retry" button.
    func retry() async {
        errorMessage = nil
        await loadNextPage()
    }

    /// The search field was submitted.
    func search(_ text: String) async {
        guard text != query else { return }
        generation += 1
        query = text
        results = []
        seenIDs = []
        nextPage = 1
        canLoadMore = true
        errorMessage = nil
        inFlight = nil
        await loadNextPage()
    }

    /// `.refreshable`. The results stay on screen until page 1 is back; page 1's response
    /// replaces them and sets `canLoadMore` again.
    func refresh() async {
        generation += 1
        nextPage = 1
        errorMessage = nil
        await load(Ticket(generation: generation, page: 1))
    }

    // MARK: - Loading

    private func load(_ ticket: Ticket) async {
        inFlight = ticket
        do {
            let page = try await loader(query, ticket.page)
            guard inFlight == ticket else { return }  // a newer search or refresh owns the list
            inFlight = nil
            apply(page, for: ticket)
        } catch {
            guard inFlight == ticket else { return }
            inFlight = nil
            if !(error is CancellationError) {
                errorMessage = "Search failed. Check your connection and try again."
            }
        }
    }

    private func apply(_ page: SearchResultsPage, for ticket: Ticket) {
        var merged = ticket.page == 1 ? [] : results
        if ticket.page == 1 { seenIDs = [] }
        for result in page.results where seenIDs.insert(result.id).inserted {
            merged.append(result)
        }
        results = merged
        nextPage = ticket.page + 1
        canLoadMore = page.hasMore
    }
}
