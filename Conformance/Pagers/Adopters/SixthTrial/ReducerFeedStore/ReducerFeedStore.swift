import Foundation
import Observation

public struct FeedItem: Identifiable, Equatable, Sendable {
    public let id: String
    public let title: String
    public init(id: String, title: String) { self.id = id; self.title = title }
}

public struct FeedPage: Sendable {
    public let items: [FeedItem]
    /// `nil` means the server has no more pages.
    public let nextCursor: String?
    public init(items: [FeedItem], nextCursor: String?) { self.items = items; self.nextCursor = nextCursor }
}

public struct FeedClient: Sendable {
    public var fetch: @Sendable (_ query: String, _ cursor: String?) async throws -> FeedPage
    public init(fetch: @escaping @Sendable (_ query: String, _ cursor: String?) async throws -> FeedPage) {
        self.fetch = fetch
    }
}

@MainActor
@Observable
public final class ReducerFeedStore {
    public struct State: Equatable {
        public var query: String = ""
        public var items: [FeedItem] = []
        /// Cursor to request the next page with (nil = first page).
        public var cursor: String? = nil
        public var hasMore: Bool = true
        public var isLoading: Bool = false
        public var isRefreshing: Bool = false
        public var errorMessage: String? = nil
        public var inFlightRequestID: UUID? = nil
        public init() {}
    }

    public enum Action: Sendable {
        case onAppear
        case scrolledToBottom
        case searchChanged(String)
        case pulledToRefresh
        case retryTapped
        case pageResponse(requestID: UUID, Result<FeedPage, Error>)
    }

    public private(set) var state = State()
    private let client: FeedClient
    @ObservationIgnored private var effect: Task<Void, Never>?
    @ObservationIgnored private var requestedCursor: String? = nil
    @ObservationIgnored private var lastFailedWasRefresh = false
    @ObservationIgnored private var seenCursors: Set<String> = []

    public init(client: FeedClient, initialQuery: String = "") {
        self.client = client
        self.state.query = initialQuery
    }

    /// Returns the effect the action started, if any (like TCA's `StoreTask`), so callers
    /// such as `.refreshable` or tests can await it.
    @discardableResult
    public func send(_ action: Action) -> Task<Void, Never>? {
        switch action {
        case .onAppear:
            guard state.items.isEmpty, !state.isLoading else { return nil }
            return startLoad(cursor: nil)

        case .scrolledToBottom:
            guard !state.isLoading, state.hasMore, state.errorMessage == nil else { return nil }
            return startLoad(cursor: state.cursor)

        case let .searchChanged(text):
            guard text != state.query else { return nil }
            effect?.cancel()
            state.query = text
            resetList()
            return startLoad(cursor: nil)

        case .pulledToRefresh:
            effect?.cancel()
            state.isRefreshing = true
            return startLoad(cursor: nil)

        case .retryTapped:
            guard state.errorMessage != nil, !state.isLoading else { return nil }
            state.errorMessage = nil
            // Re-issue exactly the request that failed (same cursor; refresh stays a refresh).
            state.isRefreshing = lastFailedWasRefresh
            return startLoad(cursor: requestedCursor)

        case let .pageResponse(requestID, result):
            guard requestID == state.inFlightRequestID else { return nil } // stale: old query / superseded
            state.inFlightRequestID = nil
            state.isLoading = false
            let wasFirstPage = requestedCursor == nil
            let wasRefresh = state.isRefreshing
            state.isRefreshing = false
            switch result {
            case let .success(page):
                if wasFirstPage || wasRefresh { state.items = []; seenCursors = [] }
                let known = Set(state.items.map(\.id))
                var seen = known
                for item in page.items where !seen.contains(item.id) {
                    seen.insert(item.id)
                    state.items.append(item)
                }
                if let next = page.nextCursor, next != requestedCursor, !seenCursors.contains(next) {
                    seenCursors.insert(next)
                    state.cursor = next
                    state.hasMore = true
                } else {
                    // nil cursor, or the server repeated the cursor (no progress): stop.
                    state.cursor = page.nextCursor
                    state.hasMore = false
                }
                state.errorMessage = nil
            case let .failure(error):
                lastFailedWasRefresh = wasRefresh
                state.errorMessage = String(describing: error)
            }
            return nil
        }
    }

    private func resetList() {
        state.items = []
        state.cursor = nil
        state.hasMore = true
        state.errorMessage = nil
        state.isRefreshing = false
        seenCursors = []
    }

    private func startLoad(cursor: String?) -> Task<Void, Never> {
        let id = UUID()
        state.inFlightRequestID = id
        state.isLoading = true
        state.errorMessage = nil
        requestedCursor = cursor
        let query = state.query
        let client = self.client
        effect?.cancel()
        effect = Task { [weak self] in
            let result: Result<FeedPage, Error>
            do {
                result = .success(try await client.fetch(query, cursor))
            } catch {
                result = .failure(error)
            }
            guard !Task.isCancelled else { return }
            self?.send(.pageResponse(requestID: id, result))
        }
        return effect!
    }
}
