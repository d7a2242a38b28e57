import PagerContracts

/// A list model written the way many apps write one, with every conforming variation the kit
/// must accept rather than the reference's choices:
///
/// - `String` item IDs, and a load token (a counter) instead of generation + page;
/// - a query change loads the first page by itself;
/// - a duplicate bottom trigger is rejected with an error;
/// - a bottom trigger while an error is shown does nothing: only retry reloads;
/// - the error clears as soon as the retry starts;
/// - refresh keeps the old items visible until the new first page arrives;
/// - it does not report `hasMore` or a protocol-error state.
struct FeedStore {
    struct Busy: Error {}

    struct Token: Equatable {
        let serial: Int
        let page: Int
    }

    private(set) var items: [String] = []
    private(set) var loading: Token?
    private(set) var errorShown = false
    private var serial = 0
    private var nextPage = 1
    private var more = true
    private var emptyPagesInARow = 0
    private var replaceOnNextPage = false

    mutating func loadMore() throws -> Token? {
        if loading != nil { throw Busy() }
        guard more, !errorShown, emptyPagesInARow < 3 else { return nil }
        return begin()
    }

    mutating func retry() -> Token? {
        guard errorShown, loading == nil else { return nil }
        errorShown = false
        return begin()
    }

    mutating func search() -> Token? {
        restart()
        items = []
        return begin()
    }

    mutating func refresh() -> Token? {
        restart()
        replaceOnNextPage = true
        return begin()
    }

    mutating func loaded(_ ids: [String], hasMore: Bool, token: Token) {
        guard token == loading else { return }
        loading = nil
        if replaceOnNextPage {
            items = []
            replaceOnNextPage = false
        }
        let fresh = ids.reduce(into: [String]()) { fresh, id in
            if !items.contains(id) && !fresh.contains(id) { fresh.append(id) }
        }
        items += fresh
        emptyPagesInARow = fresh.isEmpty ? emptyPagesInARow + 1 : 0
        nextPage += 1
        more = hasMore
    }

    mutating func failed(token: Token) {
        guard token == loading else { return }
        loading = nil
        errorShown = true
    }

    private mutating func restart() {
        loading = nil
        errorShown = false
        nextPage = 1
        more = true
        emptyPagesInARow = 0
    }

    private mutating func begin() -> Token {
        serial += 1
        let token = Token(serial: serial, page: nextPage)
        loading = token
        return token
    }
}

/// Drives ``FeedStore``.
struct FeedStoreAdapter: PagerModelAdapter {
    static let capabilities = PagerCapabilities(pagination: .pageNumbers, triggers: [.refresh])

    var store = FeedStore()

    mutating func bottomReached() throws -> PageRequest<FeedStore.Token>? {
        try store.loadMore().map { PageRequest($0, page: $0.page) }
    }

    mutating func changeQuery(to query: String) -> PageRequest<FeedStore.Token>? {
        store.search().map { PageRequest($0, page: $0.page) }
    }

    mutating func refresh() -> PageRequest<FeedStore.Token>? {
        store.refresh().map { PageRequest($0, page: $0.page) }
    }

    mutating func retry() -> PageRequest<FeedStore.Token>? {
        store.retry().map { PageRequest($0, page: $0.page) }
    }

    mutating func deliver(_ response: PageResponse, for ticket: FeedStore.Token) -> PageRequest<FeedStore.Token>? {
        store.loaded(response.rows.map(\.stringID), hasMore: response.hasMore, token: ticket)
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: FeedStore.Token) -> PageRequest<FeedStore.Token>? {
        store.failed(token: ticket)
        return nil
    }

    func snapshot() -> PagerSnapshot<String> {
        PagerSnapshot(
            visibleIDs: store.items, isLoading: store.loading != nil, showsError: store.errorShown)
    }

    static func itemID(for row: PageRow) -> String { row.stringID }
}
