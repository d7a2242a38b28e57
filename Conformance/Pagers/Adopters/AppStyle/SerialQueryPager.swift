import Foundation

public struct SerialQueryRow: Identifiable, Sendable, Equatable {
    public let id: String
    public let label: String
    public init(id: String, label: String = "") {
        self.id = id
        self.label = label
    }
}

public struct SerialQueryPage: Sendable, Equatable {
    public let rows: [SerialQueryRow]
    public let hasMore: Bool
    public init(rows: [SerialQueryRow], hasMore: Bool) {
        self.rows = rows
        self.hasMore = hasMore
    }
}

public protocol SerialQueryLoading: Sendable {
    /// Pages are numbered from 1.
    func page(_ number: Int, for query: String) async throws -> SerialQueryPage
}

/// Pager actor whose requests form a serial queue: each request is a `Task` that
/// first awaits the previous one. A query change therefore waits for the old
/// request to finish before page 1 of the new query is requested; the old answer
/// is discarded by the generation check. Requests queued for a query that was
/// replaced before they ran are skipped without hitting the network.
public actor SerialQueryPager {
    public struct State: Sendable, Equatable {
        public var query: String
        public var rows: [SerialQueryRow]
        public var isLoading: Bool
        public var hasMore: Bool
        public var errorMessage: String?
        public var nextPage: Int
        public var visibleIDs: [String] { rows.map(\.id) }
    }

    private let loading: any SerialQueryLoading
    private var state: State
    private var generation = 0
    private var tail: Task<Void, Never>?
    private var seen: Set<String> = []

    public init(query: String = "", loading: any SerialQueryLoading) {
        self.loading = loading
        self.state = State(query: query, rows: [], isLoading: false, hasMore: true, errorMessage: nil, nextPage: 1)
    }

    public func snapshot() -> State { state }
    public var visibleIDs: [String] { state.visibleIDs }
    public var isLoading: Bool { state.isLoading }
    public var hasMore: Bool { state.hasMore }
    public var errorMessage: String? { state.errorMessage }

    // MARK: Triggers

    public func loadMore() async {
        guard !state.isLoading, state.hasMore else { return }
        await enqueue(page: state.nextPage)
    }

    public func retry() async {
        guard state.errorMessage != nil else { return }
        await loadMore()
    }

    public func setQuery(_ query: String) async {
        generation += 1
        seen = []
        state = State(query: query, rows: [], isLoading: false, hasMore: true, errorMessage: nil, nextPage: 1)
        await enqueue(page: 1)
    }

    public func refresh() async {
        await setQuery(state.query)
    }

    // MARK: Queue

    private func enqueue(page: Int) async {
        let ticket = generation
        let query = state.query
        state.isLoading = true
        state.errorMessage = nil

        let previous = tail
        let request = Task {
            await previous?.value
            await self.perform(ticket: ticket, query: query, page: page)
        }
        tail = request
        await request.value
    }

    private func perform(ticket: Int, query: String, page: Int) async {
        guard ticket == generation else { return } // superseded while waiting in line

        let result: Result<SerialQueryPage, any Error>
        do {
            result = .success(try await loading.page(page, for: query))
        } catch {
            result = .failure(error)
        }

        guard ticket == generation else { return } // stale answer
        state.isLoading = false
        switch result {
        case .success(let answer):
            for row in answer.rows where seen.insert(row.id).inserted {
                state.rows.append(row)
            }
            state.hasMore = answer.hasMore
            state.nextPage = page + 1
        case .failure(let error):
            if !(error is CancellationError) {
                state.errorMessage = "Could not load page \(page)."
            }
        }
    }
}
