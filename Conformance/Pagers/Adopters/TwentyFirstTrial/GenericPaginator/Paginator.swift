import Foundation

/// One page from any cursor-paginated endpoint of ours (products, orders and reviews all use
/// it). `nextCursor` is the server's value, exactly as decoded from the JSON body.
struct PaginatorPage<Item: Sendable>: Sendable {
    var items: [Item]
    var nextCursor: String?
    var hasMore: Bool
}

/// What a screen renders. Read it after awaiting a trigger.
struct PaginatorState<Item: Sendable>: Sendable {
    var items: [Item] = []
    var isLoadingPage = false
    var hasMore = true
    var errorMessage: String?
    /// The server answered "more" without moving its cursor: automatic loading stops, so we do
    /// not ask for the same page forever. Only a new filter starts again.
    var isStalled = false
}

/// Generic cursor paginator shared by the product search, order history and review screens.
///
/// Each screen creates one with a `fetch` closure for its endpoint and current filter, calls
/// `loadMore()` from its bottom sentinel and `replaceFetch(_:)` when the filter changes.
/// The closure receives the cursor ready to be put into the URL (`?after=`), or `nil` for the
/// first page.
actor Paginator<Item: Identifiable & Sendable> where Item.ID: Sendable {
    typealias Fetch = @Sendable (_ wireCursor: String?) async throws -> PaginatorPage<Item>

    /// Our cursors are base64 (`eyJvIjo0MH0=`). `URLQueryItem` leaves `+`, `/` and `=` as they
    /// are and the gateway decodes `+` as a space, so the paginator keeps the cursor in the
    /// percent-encoded form that goes on the wire; every screen's fetch appends it verbatim
    /// with `percentEncodedQueryItems`, and request logs show exactly what was sent.
    static func wireEncoded(_ serverCursor: String) -> String {
        var unreserved = CharacterSet.alphanumerics
        unreserved.insert(charactersIn: "-._~")
        return serverCursor.addingPercentEncoding(withAllowedCharacters: unreserved) ?? serverCursor
    }

    private(set) var state = PaginatorState<Item>()

    private var fetch: Fetch
    private var nextWireCursor: String?
    private var knownIDs: Set<Item.ID> = []
    private var loadCounter = 0
    private var running: (id: Int, task: Task<Void, Never>)?

    init(fetch: @escaping Fetch) {
        self.fetch = fetch
    }

    // MARK: Triggers

    /// The bottom sentinel became visible. Also the first load of a screen.
    func loadMore() async {
        // The sentinel fires on every layout pass while the spinner shows: one load at a time.
        guard running == nil, state.hasMore, !state.isStalled else { return }
        await startLoad()
    }

    /// The footer's "Try again" button.
    func retry() async {
        guard running == nil, state.hasMore, !state.isStalled else { return }
        await startLoad()
    }

    /// A new filter or search text: forget everything and load its first page.
    func replaceFetch(_ newFetch: @escaping Fetch) async {
        running?.task.cancel()
        running = nil
        fetch = newFetch
        nextWireCursor = nil
        knownIDs = []
        state = PaginatorState()
        await startLoad()
    }

    // MARK: Loading

    private func startLoad() async {
        loadCounter += 1
        let id = loadCounter
        let requested = nextWireCursor
        let fetch = self.fetch
        state.isLoadingPage = true
        state.errorMessage = nil
        let task = Task {
            await self.perform(id: id, wireCursor: requested, fetch: fetch)
        }
        running = (id, task)
        await task.value
    }

    private func perform(id: Int, wireCursor requested: String?, fetch: Fetch) async {
        let result: Result<PaginatorPage<Item>, any Error>
        do {
            result = .success(try await fetch(requested))
        } catch {
            result = .failure(error)
        }
        // Only the load we are still waiting for may touch the state: the answer to a replaced
        // filter's request ends here, whether it brings a page or an error.
        guard running?.id == id else { return }
        running = nil
        state.isLoadingPage = false
        switch result {
        case .success(let page):
            apply(page, requested: requested)
        case .failure(let error) where error is CancellationError:
            // The system cancelled our live request: no error banner, and the next bottom hit
            // or retry asks for the same cursor again.
            break
        case .failure(let error):
            state.errorMessage = String(describing: error)
        }
    }

    private func apply(_ page: PaginatorPage<Item>, requested: String?) {
        for item in page.items where knownIDs.insert(item.id).inserted {
            state.items.append(item)
        }
        state.hasMore = page.hasMore
        // A server that hands back the cursor we just sent while saying "more" would have us
        // request the same page forever (and a first page with no cursor at all cannot be
        // continued either): stop and show the protocol error.
        if page.hasMore, page.nextCursor == nil || page.nextCursor == requested {
            state.isStalled = true
            return
        }
        nextWireCursor = page.nextCursor.map(Self.wireEncoded)
    }
}
