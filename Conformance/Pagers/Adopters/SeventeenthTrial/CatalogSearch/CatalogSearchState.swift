import Foundation

/// The product-search screen's state, as a value the feature's store owns.
///
/// The store runs every side effect: it sends a `Fetch` this state asks for to the catalog API
/// and feeds the outcome back with `receive(_:for:)`. Everything the screen renders is read from
/// here (the results, the "Searching…" footer, the "keep typing" hint, the retry banner).
///
/// Paging rules the team agreed on:
/// - results come 20 per page (`page` is 1-based);
/// - a search needs at least `minimumQueryLength` characters; shorter text shows a hint;
/// - answers are matched by a ticket (`generation` + `page`), so a late answer to a search the
///   user already replaced is dropped;
/// - the server is trusted for order; a product shown once is not shown again;
/// - a few pages in a row that add nothing new end the list (the backend's ranking can repeat
///   products for ever on broad queries).
public struct CatalogSearchState: Sendable, Equatable {

    public struct Product: Identifiable, Hashable, Sendable {
        public let id: Int
        public var name: String
        public var revision: Int

        public init(id: Int, name: String, revision: Int = 0) {
            self.id = id
            self.name = name
            self.revision = revision
        }
    }

    public struct Ticket: Hashable, Sendable, CustomStringConvertible {
        public let generation: Int
        public let page: Int
        public var description: String { "g\(generation)p\(page)" }
    }

    /// What the store sends to `GET /catalog/search?q=…&page=…`.
    public struct Fetch: Hashable, Sendable {
        public let ticket: Ticket
        public let query: String
        public var page: Int { ticket.page }
    }

    public struct Page: Sendable, Equatable {
        public var products: [Product]
        public var hasMore: Bool

        public init(products: [Product], hasMore: Bool) {
            self.products = products
            self.hasMore = hasMore
        }
    }

    public enum LoadError: Error, Sendable, Equatable {
        case offline
        case timedOut
        case server(status: Int)
        case cancelled
    }

    public static let minimumQueryLength = 3
    public static let pagesWithoutNewProductsBeforeStopping = 3

    // MARK: Rendered state

    public private(set) var query: String
    public private(set) var products: [Product] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var showsRetryBanner = false

    /// "Type at least 3 characters" over the (empty) list.
    public var showsKeepTypingHint: Bool {
        query.count < Self.minimumQueryLength
    }

    // MARK: Paging bookkeeping

    private var generation = 0
    private var nextPage = 1
    private var shownIDs: Set<Int> = []
    private var pagesWithoutNewProducts = 0

    public init(query: String) {
        self.query = query.trimmingCharacters(in: .whitespacesAndNewlines)
        if showsKeepTypingHint { hasMore = false }
    }

    // MARK: Events

    /// The search field's text changed (the view sends it once typing pauses).
    /// Returns the first page to fetch, if the new text can be searched.
    public mutating func setQuery(_ text: String) -> Fetch? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed != query else { return nil }
        query = trimmed

        guard trimmed.count >= Self.minimumQueryLength else {
            // Too short to search: an empty list under the "keep typing" hint, nothing to load.
            clearResults(hasMore: false)
            return nil
        }

        // A new search: every answer still on its way belongs to the old one.
        generation += 1
        clearResults(hasMore: true)
        return startFetch()
    }

    /// The list's last row appeared (also the first load of a search).
    public mutating func loadNextPage() -> Fetch? {
        guard !isLoading, hasMore, !showsKeepTypingHint else { return nil }
        return startFetch()
    }

    /// The retry banner's button. Asks again for the page that failed.
    public mutating func retry() -> Fetch? {
        guard showsRetryBanner else { return loadNextPage() }
        showsRetryBanner = false
        return loadNextPage()
    }

    public mutating func receive(_ result: Result<Page, LoadError>, for ticket: Ticket) {
        // Only the page this search is waiting for; a repeated or late answer is dropped.
        guard ticket.generation == generation, ticket.page == nextPage else { return }

        switch result {
        case .success(let page):
            isLoading = false
            showsRetryBanner = false
            append(page.products)
            nextPage += 1
            hasMore = page.hasMore
            if hasMore, pagesWithoutNewProducts >= Self.pagesWithoutNewProductsBeforeStopping {
                // The backend keeps saying "more" without anything new: end the list here.
                hasMore = false
            }

        case .failure(.cancelled):
            // The system cancelled the live request: stop the spinner; the next bottom
            // trigger asks for the same page again.
            isLoading = false

        case .failure:
            isLoading = false
            showsRetryBanner = true
        }
    }

    // MARK: Private

    private mutating func startFetch() -> Fetch {
        isLoading = true
        showsRetryBanner = false
        return Fetch(ticket: Ticket(generation: generation, page: nextPage), query: query)
    }

    private mutating func append(_ page: [Product]) {
        var added = 0
        for product in page where shownIDs.insert(product.id).inserted {
            products.append(product)
            added += 1
        }
        pagesWithoutNewProducts = added == 0 ? pagesWithoutNewProducts + 1 : 0
    }

    private mutating func clearResults(hasMore: Bool) {
        products = []
        shownIDs = []
        nextPage = 1
        pagesWithoutNewProducts = 0
        isLoading = false
        showsRetryBanner = false
        self.hasMore = hasMore
    }
}

/// The store around the state: it owns the API client and runs the fetches the state asks for.
/// (Shown for context; the conformance adapter drives `CatalogSearchState` directly.)
@MainActor
public final class CatalogSearchStore {
    public private(set) var state: CatalogSearchState
    private let fetchPage: @Sendable (String, Int) async throws -> CatalogSearchState.Page
    private var tasks: [CatalogSearchState.Ticket: Task<Void, Never>] = [:]

    public init(query: String = "",
                fetchPage: @escaping @Sendable (String, Int) async throws -> CatalogSearchState.Page) {
        self.state = CatalogSearchState(query: query)
        self.fetchPage = fetchPage
    }

    public func searchTextChanged(_ text: String) { run(state.setQuery(text)) }
    public func lastRowAppeared() { run(state.loadNextPage()) }
    public func retryTapped() { run(state.retry()) }

    private func run(_ fetch: CatalogSearchState.Fetch?) {
        guard let fetch else { return }
        let fetchPage = self.fetchPage
        tasks[fetch.ticket] = Task {
            let result: Result<CatalogSearchState.Page, CatalogSearchState.LoadError>
            do {
                result = .success(try await fetchPage(fetch.query, fetch.page))
            } catch is CancellationError {
                result = .failure(.cancelled)
            } catch let error as URLError where error.code == .timedOut {
                result = .failure(.timedOut)
            } catch let error as URLError where error.code == .notConnectedToInternet {
                result = .failure(.offline)
            } catch {
                result = .failure(.server(status: 500))
            }
            self.state.receive(result, for: fetch.ticket)
            self.tasks[fetch.ticket] = nil
        }
    }
}
