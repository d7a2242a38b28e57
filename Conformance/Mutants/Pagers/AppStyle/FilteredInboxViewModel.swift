import Foundation
import Observation

// MARK: - Models

public struct InboxMessage: Identifiable, Sendable, Equatable {
    public let id: String

    public init(id: String) {
        self.id = id
    }
}

public struct InboxPage: Sendable, Equatable {
    public let messages: [InboxMessage]
    public let nextCursor: String?
    public let hasMore: Bool

    public init(messages: [InboxMessage], nextCursor: String?, hasMore: Bool) {
        self.messages = messages
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}

// MARK: - View model

/// Cursor-paginated, filterable inbox list.
///
/// Every load is tagged with the generation (filter session) and the request it
/// belongs to. A completion is compared against both before any state is written,
/// so a superseded load (for example one of a previous filter) can never change
/// what the list shows.
@MainActor
@Observable
public final class FilteredInboxViewModel {
    public typealias Fetch = @Sendable (_ filter: String, _ cursor: String?) async throws -> InboxPage

    // MARK: Public state

    public private(set) var filter: String
    public private(set) var messages: [InboxMessage] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var errorMessage: String?
    /// Automatic loading stopped because the server's cursor did not advance.
    public private(set) var hasProtocolError = false

    public var visibleIDs: [String] { messages.map(\.id) }

    // MARK: Private state

    private let fetch: Fetch

    /// Cursor of the next page to request; `nil` means the first page.
    /// Kept unchanged on failure, so a retry asks for the page that failed.
    @ObservationIgnored private var cursor: String?
    @ObservationIgnored private var knownIDs: Set<String> = []
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var requestCounter = 0
    @ObservationIgnored private var currentRequestID: Int?
    @ObservationIgnored private var inFlight: Task<InboxPage, any Error>?

    public init(filter: String, fetch: @escaping Fetch) {
        self.filter = filter
        self.fetch = fetch
    }

    // MARK: Public API

    /// Bottom-of-list trigger: loads the next page (or the first one when nothing is loaded).
    public func loadMore() async {
        guard !isLoading, hasMore, !hasProtocolError, errorMessage == nil else { return }
        await load(cursor: cursor)
    }

    /// Clears the error and loads the page that failed again (same cursor).
    public func retry() async {
        guard errorMessage != nil, !isLoading, !hasProtocolError else { return }
        errorMessage = nil
        await load(cursor: cursor)
    }

    /// Starts over with a new filter and loads its first page.
    public func setFilter(_ newFilter: String) async {
        generation &+= 1
        inFlight?.cancel()
        inFlight = nil
        currentRequestID = nil

        filter = newFilter
        messages = []
        knownIDs = []
        cursor = nil
        errorMessage = nil
        hasProtocolError = false
        hasMore = true

        await load(cursor: nil)
    }

    /// Reloads the current filter from the first page.
    public func refresh() async {
        await setFilter(filter)
    }

    // MARK: Loading

    private func load(cursor requestedCursor: String?) async {
        requestCounter &+= 1
        let requestID = requestCounter
        let requestGeneration = generation
        let requestFilter = filter
        let fetch = self.fetch

        currentRequestID = requestID
        isLoading = true
        errorMessage = nil

        let task = Task<InboxPage, any Error> {
            try await fetch(requestFilter, requestedCursor)
        }
        inFlight = task

        let result: Result<InboxPage, any Error>
        do {
            result = .success(try await task.value)
        } catch {
            result = .failure(error)
        }

        // Stale completions (older generation or superseded request) must not touch state.
        guard requestGeneration == generation, requestID == currentRequestID else { return }

        inFlight = nil
        currentRequestID = nil
        isLoading = false

        switch result {
        case .success(let page):
            apply(page, requestedCursor: requestedCursor)
        case .failure(let error):
            // Keep messages and cursor so retry() asks for the same page.
            errorMessage = error.localizedDescription
        }
    }

    private func apply(_ page: InboxPage, requestedCursor: String?) {
        let newMessages = page.messages.filter { knownIDs.insert($0.id).inserted }
        messages.append(contentsOf: newMessages)
        hasMore = page.hasMore
        cursor = page.nextCursor

        if page.hasMore {
            // BUG: the first page's request has no cursor, so a first page that returns none with hasMore: true is never seen as a stall and page 1 is requested again forever
            if let requested = requestedCursor, page.nextCursor == requested {
                hasProtocolError = true
            }
        }
    }
}
