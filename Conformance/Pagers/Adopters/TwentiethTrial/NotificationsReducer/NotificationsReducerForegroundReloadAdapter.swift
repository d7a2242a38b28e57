import Foundation
import PagerContracts

/// Drives the notifications reducer directly, each kit event the action the store would send,
/// with the kit's refresh mapped to the *other* path that reloads the list from the top: the
/// app coming back to the foreground after the list went stale. (The pull-to-refresh path has
/// its own adapter in the app's tests; each path that reloads from page 1 gets one.)
struct NotificationsReducerForegroundReloadAdapter: PagerModelAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh])
    private static let receivedAt = Date(timeIntervalSinceReferenceDate: 800_000_000)
    /// Long enough after any page arrived for the list to count as stale.
    private static let backInTheForeground = receivedAt.addingTimeInterval(NotificationsState.staleAfter + 60)

    private var state = NotificationsState(filter: "A")

    private mutating func send(_ action: NotificationsAction) -> PageRequest<NotificationsPageLoad>? {
        guard let effect = NotificationsReducer.reduce(&state, action) else { return nil }
        switch effect {
        case let .fetch(_, load): return PageRequest(load, page: load.page)
        }
    }

    mutating func bottomReached() -> PageRequest<NotificationsPageLoad>? { send(.reachedBottom) }
    mutating func changeQuery(to query: String) -> PageRequest<NotificationsPageLoad>? { send(.filterChanged(query)) }
    mutating func refresh() -> PageRequest<NotificationsPageLoad>? {
        send(.sceneBecameActive(now: Self.backInTheForeground))
    }
    mutating func retry() -> PageRequest<NotificationsPageLoad>? { send(.retryTapped) }

    mutating func deliver(_ response: PageResponse, for ticket: NotificationsPageLoad) -> PageRequest<NotificationsPageLoad>? {
        let page = NotificationsPage(
            notifications: response.rows.map { AppNotification(id: $0.id, title: $0.title, isUnread: true) },
            hasMore: response.hasMore)
        return send(.pageResponse(ticket, .success(page), receivedAt: Self.receivedAt))
    }

    mutating func fail(_ failure: PageFailure, for ticket: NotificationsPageLoad) -> PageRequest<NotificationsPageLoad>? {
        let error: NotificationsError
        switch failure {
        case .timeout: error = .timedOut
        case .serverError(let status): error = .server(status: status)
        case .cancelled: error = .cancelled
        }
        return send(.pageResponse(ticket, .failure(error), receivedAt: Self.receivedAt))
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: state.notifications.map(\.id), isLoading: state.isLoading,
            hasMore: state.hasMore, showsError: state.error != nil)
    }
}
