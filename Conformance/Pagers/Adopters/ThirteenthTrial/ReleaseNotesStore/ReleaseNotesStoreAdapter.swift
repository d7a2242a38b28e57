import PagerContracts
import Foundation

// MARK: - Mapping the kit's pages onto the app's API

extension ReleaseNote {
    /// A kit row as the backend would send it; the note's ID is the row's string ID.
    init(row: PageRow) {
        self.init(id: row.stringID, version: "1.\(row.id).0", title: row.title, publishedAt: nil)
    }
}

extension ReleaseNotesPage {
    init(_ response: PageResponse, page: Int, perPage: Int) {
        self.init(
            releaseNotes: response.rows.map(ReleaseNote.init(row:)), page: page, perPage: perPage,
            hasNextPage: response.hasMore)
    }
}

extension ReleaseNotesFeature.LoadError {
    /// The model level hands failures over as `PageFailure`; the app's effect would have
    /// mapped the transport's error the same way.
    init(_ failure: PageFailure) {
        if failure.isCancellation {
            self = .cancelled
        } else if case .serverError(let status) = failure {
            self = .server(status: status)
        } else {
            self = .other(failure.description)
        }
    }
}

// MARK: - Model level: the reducer as a synchronous state machine

/// Drives `ReleaseNotesFeature.reduce` directly. The ticket is the effect's `FetchRequest`
/// (request ID + page), so the kit hands back exactly what the app's effect would.
struct ReleaseNotesReducerAdapter: PagerModelAdapter {
    typealias ItemID = String
    typealias Ticket = ReleaseNotesFeature.FetchRequest

    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers,
        triggers: [.refresh, .appear],
        stopsOnNoProgress: false)  // never chains a load by itself: waits for the next trigger

    static func itemID(for row: PageRow) -> String { row.stringID }

    var state = ReleaseNotesFeature.State(searchText: "A")

    private mutating func send(_ action: ReleaseNotesFeature.Action) -> PageRequest<Ticket>? {
        let effect = ReleaseNotesFeature.reduce(into: &state, action: action)
        return effect.fetch.map { PageRequest($0, page: $0.page) }
    }

    mutating func appear() -> PageRequest<Ticket>? { send(.onAppear) }
    mutating func bottomReached() -> PageRequest<Ticket>? { send(.bottomReached) }
    mutating func changeQuery(to query: String) -> PageRequest<Ticket>? { send(.searchTextChanged(query)) }
    mutating func refresh() -> PageRequest<Ticket>? { send(.pulledToRefresh) }
    mutating func retry() -> PageRequest<Ticket>? { send(.retryTapped) }

    mutating func deliver(_ response: PageResponse, for ticket: Ticket) -> PageRequest<Ticket>? {
        let page = ReleaseNotesPage(response, page: ticket.page, perPage: ticket.perPage)
        return send(.response(.success(page), requestID: ticket.requestID))
    }

    mutating func fail(_ failure: PageFailure, for ticket: Ticket) -> PageRequest<Ticket>? {
        send(.response(.failure(ReleaseNotesFeature.LoadError(failure)), requestID: ticket.requestID))
    }

    func snapshot() -> PagerSnapshot<String> {
        PagerSnapshot(
            visibleIDs: state.notes.map(\.id),
            isLoading: state.isLoading,
            hasMore: state.hasNextPage,
            showsError: state.loadError != nil)
    }
}

// MARK: - Async level: the real store, its effects and its API, over the kit's page source

/// The app's `ReleaseNotesAPI`, served by the kit's page source instead of the network.
struct PageSourceReleaseNotesAPI: ReleaseNotesAPI {
    let source: PageSource

    func releaseNotes(search: String, page: Int, perPage: Int) async throws -> ReleaseNotesPage {
        do {
            let response = try await source.load(query: search, page: page)
            return ReleaseNotesPage(response, page: page, perPage: perPage)
        } catch let failure as PageFailure {
            // What URLSession / our HTTP layer would throw instead.
            if failure.isCancellation { throw CancellationError() }
            if case .serverError(let status) = failure { throw ReleaseNotesAPIError.httpStatus(status) }
            throw URLError(.timedOut)
        }  // CancellationError passes through as it is.
    }
}

struct ReleaseNotesStoreAdapter: AsyncPagerAdapter {
    typealias ItemID = String

    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers,
        triggers: [.refresh, .appear],
        loader: .asyncAwait,
        stopsOnNoProgress: false)

    static func itemID(for row: PageRow) -> String { row.stringID }

    let store: ReleaseNotesStore

    init(source: PageSource) async {
        store = await ReleaseNotesStore(
            initialState: ReleaseNotesFeature.State(searchText: "A"),
            api: PageSourceReleaseNotesAPI(source: source))
    }

    /// Sends the action and awaits the effect it started (the store returns its task).
    private func send(_ action: ReleaseNotesFeature.Action) async {
        let task = await store.send(action)
        await task?.value
    }

    func appear() async { await send(.onAppear) }
    func bottomReached() async { await send(.bottomReached) }
    func changeQuery(to query: String) async { await send(.searchTextChanged(query)) }
    func refresh() async { await send(.pulledToRefresh) }
    func retry() async { await send(.retryTapped) }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            let state = store.state
            return PagerSnapshot(
                visibleIDs: state.notes.map(\.id),
                isLoading: state.isLoading,
                hasMore: state.hasNextPage,
                showsError: state.loadError != nil)
        }
    }
}


