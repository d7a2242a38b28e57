import Foundation

/// The release-notes list as a reducer: a value `State`, an `Action` enum, a pure
/// `reduce(into:action:)` returning an `Effect` the store runs.
///
/// Rules the reducer keeps:
/// - every fetch gets a fresh `requestID`; only the response to the request in flight
///   (`state.inFlight`) is accepted, once: stale answers (after a search change or refresh)
///   and repeated answers are dropped, failures included;
/// - one page request at a time; a search change or refresh supersedes the running one;
/// - a failure keeps the notes, shows an error, and retry asks for the same page;
/// - page 1 replaces the list (a refresh keeps the old notes visible until then);
/// - notes are de-duplicated by ID (first occurrence wins), in server order;
/// - after `has_next_page == false` only a search change or refresh loads again.
enum ReleaseNotesFeature {
    static let pageSize = 20

    struct FetchRequest: Equatable, Hashable, Sendable {
        let requestID: Int
        let search: String
        let page: Int
        let perPage: Int
    }

    enum LoadError: Error, Equatable, Sendable {
        case cancelled
        case offline
        case server(status: Int)
        case other(String)

        init(_ error: any Error) {
            switch error {
            case is CancellationError:
                self = .cancelled
            case let error as URLError where error.code == .cancelled:
                self = .cancelled
            case let error as URLError:
                self = error.code == .notConnectedToInternet ? .offline : .other(error.localizedDescription)
            case ReleaseNotesAPIError.httpStatus(let status):
                self = .server(status: status)
            default:
                self = .other(String(describing: error))
            }
        }

        var message: String {
            switch self {
            case .cancelled: "Cancelled."
            case .offline: "You're offline."
            case .server(let status): "The server had a problem (\(status))."
            case .other: "Couldn't load release notes."
            }
        }
    }

    struct State: Equatable, Sendable {
        var searchText: String
        var notes: [ReleaseNote] = []
        /// The page the next bottom trigger (or retry) asks for.
        var nextPage = 1
        var hasNextPage = true
        var inFlight: FetchRequest?
        var loadError: LoadError?
        var lastRequestID = 0

        init(searchText: String = "") {
            self.searchText = searchText
        }

        var isLoading: Bool { inFlight != nil }
        var isRefreshing: Bool { inFlight?.page == 1 && !notes.isEmpty }
        var showsLoadMoreFooter: Bool { hasNextPage && loadError == nil }
    }

    enum Action: Sendable {
        case onAppear
        case bottomReached
        case searchTextChanged(String)
        case pulledToRefresh
        case retryTapped
        case response(Result<ReleaseNotesPage, LoadError>, requestID: Int)
    }

    struct Effect: Sendable {
        typealias Send = @Sendable (Action) async -> Void
        typealias Operation = @Sendable (_ api: any ReleaseNotesAPI, _ send: @escaping Send) async -> Void

        /// What the effect fetches, if anything (for logging and tests).
        let fetch: FetchRequest?
        /// A search change or refresh supersedes the running fetch.
        let cancelsInFlight: Bool
        let operation: Operation?

        static let none = Effect(fetch: nil, cancelsInFlight: false, operation: nil)

        static func fetch(_ request: FetchRequest, cancelsInFlight: Bool) -> Effect {
            Effect(fetch: request, cancelsInFlight: cancelsInFlight) { api, send in
                do {
                    let page = try await api.releaseNotes(
                        search: request.search, page: request.page, perPage: request.perPage)
                    await send(.response(.success(page), requestID: request.requestID))
                } catch {
                    await send(.response(.failure(LoadError(error)), requestID: request.requestID))
                }
            }
        }
    }

    static func reduce(into state: inout State, action: Action) -> Effect {
        switch action {
        case .onAppear:
            // First load only: nothing shown, nothing asked for yet in this search.
            guard state.notes.isEmpty, state.nextPage == 1, state.inFlight == nil,
                  state.loadError == nil, state.hasNextPage
            else { return .none }
            return startFetch(page: 1, in: &state, cancelsInFlight: false)

        case .bottomReached:
            guard state.inFlight == nil, state.loadError == nil, state.hasNextPage else { return .none }
            return startFetch(page: state.nextPage, in: &state, cancelsInFlight: false)

        case .retryTapped:
            guard state.inFlight == nil, state.hasNextPage else { return .none }
            state.loadError = nil
            return startFetch(page: state.nextPage, in: &state, cancelsInFlight: false)

        case .searchTextChanged(let text):
            guard text != state.searchText else { return .none }
            state.searchText = text
            state.notes = []
            resetPaging(&state)
            return startFetch(page: 1, in: &state, cancelsInFlight: true)

        case .pulledToRefresh:
            // Keep the old notes on screen until page 1 of the refresh arrives.
            resetPaging(&state)
            return startFetch(page: 1, in: &state, cancelsInFlight: true)

        case let .response(result, requestID):
            // Only the request in flight may change anything, and only once.
            guard let request = state.inFlight, request.requestID == requestID else { return .none }
            state.inFlight = nil
            switch result {
            case .success(let page):
                state.loadError = nil
                if request.page == 1 { state.notes = [] }
                var seen = Set(state.notes.map(\.id))
                for note in page.releaseNotes where seen.insert(note.id).inserted {
                    state.notes.append(note)
                }
                state.nextPage = request.page + 1
                state.hasNextPage = page.hasNextPage
            case .failure(.cancelled):
                // Not ours (we only cancel superseded requests): stop the spinner, the next
                // bottom trigger asks for the same page again.
                break
            case .failure(let error):
                state.loadError = error
            }
            return .none
        }
    }

    private static func resetPaging(_ state: inout State) {
        state.nextPage = 1
        state.hasNextPage = true
        state.loadError = nil
    }

    private static func startFetch(page: Int, in state: inout State, cancelsInFlight: Bool) -> Effect {
        state.lastRequestID += 1
        let request = FetchRequest(
            requestID: state.lastRequestID, search: state.searchText, page: page, perPage: pageSize)
        state.inFlight = request
        return .fetch(request, cancelsInFlight: cancelsInFlight)
    }
}
