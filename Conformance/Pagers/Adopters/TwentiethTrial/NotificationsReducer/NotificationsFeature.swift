import Foundation
import Observation

// Notifications tab: a reducer + store in the unidirectional style the rest of the app uses.
// The reducer is a pure function of (state, action) and returns at most one effect; the store
// runs effects against the API client and feeds the result back in as an action.

struct AppNotification: Identifiable, Equatable, Sendable {
    let id: Int
    var title: String
    var isUnread: Bool
}

struct NotificationsPage: Equatable, Sendable {
    var notifications: [AppNotification]
    var hasMore: Bool
}

enum NotificationsError: Error, Equatable, Sendable {
    case timedOut
    case offline
    case server(status: Int)
    case cancelled
}

/// Identifies one page request: the epoch it belongs to and the page it asks for.
struct NotificationsPageLoad: Hashable, Sendable {
    let epoch: Int
    let page: Int
}

struct NotificationsState: Equatable, Sendable {
    static let pageStallLimit = 3
    /// A list older than this is reloaded from the top when the app comes back to the foreground.
    static let staleAfter: TimeInterval = 10 * 60

    var filter: String
    var notifications: [AppNotification] = []
    var knownIDs: Set<Int> = []
    var nextPage = 1
    var hasMore = true
    var inFlight: NotificationsPageLoad?
    var error: NotificationsError?
    /// Bumped by everything the user does that asks for a different list (filter, pull to refresh).
    var epoch = 0
    var pagesWithoutNewItems = 0
    var lastFirstPageAt: Date?

    init(filter: String) { self.filter = filter }

    var isLoading: Bool { inFlight != nil }
}

enum NotificationsAction: Sendable {
    case reachedBottom
    case retryTapped
    case filterChanged(String)
    case pulledToRefresh
    case sceneBecameActive(now: Date)
    case pageResponse(NotificationsPageLoad, Result<NotificationsPage, NotificationsError>, receivedAt: Date)
}

enum NotificationsEffect: Equatable, Sendable {
    case fetch(filter: String, load: NotificationsPageLoad)
}

enum NotificationsReducer {
    static func reduce(_ state: inout NotificationsState, _ action: NotificationsAction) -> NotificationsEffect? {
        switch action {
        case .reachedBottom:
            // The footer shows "Try again" while an error is up; scrolling does not retry by itself.
            guard state.inFlight == nil, state.error == nil, state.hasMore else { return nil }
            return startLoad(&state, page: state.nextPage)

        case .retryTapped:
            guard state.inFlight == nil, state.hasMore else { return nil }
            state.error = nil
            return startLoad(&state, page: state.nextPage)

        case .filterChanged(let filter):
            guard filter != state.filter else { return nil }
            state.filter = filter
            beginEpoch(&state)
            return startLoad(&state, page: 1)

        case .pulledToRefresh:
            beginEpoch(&state)
            return startLoad(&state, page: 1)

        case .sceneBecameActive(let now):
            guard let loadedAt = state.lastFirstPageAt,
                  now.timeIntervalSince(loadedAt) > NotificationsState.staleAfter
            else { return nil }
            // Coming back after a long time: start the list over from the top so the user does not
            // scroll through ten-minute-old notifications. This is housekeeping on the same filter,
            // not a new request from the user, so it stays in the current epoch. If a page load is
            // still running (URLSession kept it going while we were in the background) we let it
            // finish instead of firing a second request for the same filter.
            state.notifications = []
            state.knownIDs = []
            state.nextPage = 1
            state.hasMore = true
            state.error = nil
            state.pagesWithoutNewItems = 0
            guard state.inFlight == nil else { return nil }
            return startLoad(&state, page: 1)

        case let .pageResponse(load, result, receivedAt):
            guard load == state.inFlight else { return nil }  // not the request we are waiting for
            state.inFlight = nil
            switch result {
            case .success(let page):
                append(page, of: load, to: &state)
                if load.page == 1 { state.lastFirstPageAt = receivedAt }
            case .failure(.cancelled):
                // The system cancelled our request; the position stays, scrolling asks again.
                break
            case .failure(let error):
                state.error = error
            }
            return nil
        }
    }

    private static func startLoad(_ state: inout NotificationsState, page: Int) -> NotificationsEffect {
        let load = NotificationsPageLoad(epoch: state.epoch, page: page)
        state.inFlight = load
        return .fetch(filter: state.filter, load: load)
    }

    private static func beginEpoch(_ state: inout NotificationsState) {
        state.epoch += 1
        state.notifications = []
        state.knownIDs = []
        state.nextPage = 1
        state.hasMore = true
        state.inFlight = nil
        state.error = nil
        state.pagesWithoutNewItems = 0
    }

    private static func append(_ page: NotificationsPage, of load: NotificationsPageLoad, to state: inout NotificationsState) {
        var added = 0
        for notification in page.notifications where state.knownIDs.insert(notification.id).inserted {
            state.notifications.append(notification)
            added += 1
        }
        state.nextPage = load.page + 1
        state.hasMore = page.hasMore
        if page.hasMore && added == 0 {
            state.pagesWithoutNewItems += 1
            // A server that keeps saying "more" but sends nothing new: stop instead of spinning.
            if state.pagesWithoutNewItems >= NotificationsState.pageStallLimit { state.hasMore = false }
        } else {
            state.pagesWithoutNewItems = 0
        }
    }
}

struct NotificationsClient: Sendable {
    var fetch: @Sendable (_ filter: String, _ page: Int) async throws(NotificationsError) -> NotificationsPage
}

@MainActor @Observable
final class NotificationsStore {
    private(set) var state: NotificationsState
    @ObservationIgnored private let client: NotificationsClient
    @ObservationIgnored private let now: @Sendable () -> Date

    init(filter: String = "all", client: NotificationsClient, now: @escaping @Sendable () -> Date = { Date() }) {
        self.state = NotificationsState(filter: filter)
        self.client = client
        self.now = now
    }

    /// Returns the effect's task so callers (and tests) can await it.
    @discardableResult
    func send(_ action: NotificationsAction) -> Task<Void, Never>? {
        guard let effect = NotificationsReducer.reduce(&state, action) else { return nil }
        switch effect {
        case let .fetch(filter, load):
            let client = self.client
            return Task {
                let result: Result<NotificationsPage, NotificationsError>
                do throws(NotificationsError) {
                    result = .success(try await client.fetch(filter, load.page))
                } catch {
                    result = .failure(error)
                }
                self.send(.pageResponse(load, result, receivedAt: self.now()))
            }
        }
    }
}
