// From an outside trial (round six): the adapters its author wrote, names changed only.

import Foundation
import PagerContracts

struct NotificationsFooterControllerAdapter: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities { PagerCapabilities(loader: .completionHandler, stopsOnNoProgress: false) }
    let controller: NotificationsFooterController

    init(source: PageSource) async {
        controller = await NotificationsFooterController(filter: "A") { filter, page, completion in
            source.load(query: filter, page: page, onMainActor: { result in
                completion(result.map { response in
                    FooterNotificationsPage(
                        notifications: response.rows.map { FooterNotification(id: $0.id, text: $0.title) },
                        hasNextPage: response.hasMore)
                })
            })
        }
    }
    func bottomReached() async { await controller.loadNextPage() }
    func retry() async { await controller.retry() }
    func changeQuery(to query: String) async { await controller.filterChanged(to: query) }
    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(visibleIDs: controller.notifications.map(\.id), isLoading: controller.isLoading,
                          hasMore: controller.hasNextPage, showsError: controller.showsErrorFooter)
        }
    }
}

// MARK: (d) BUGGY reducer (refresh swallowed by the in-flight guard)

struct GuardedRefreshFeedAdapter: PagerModelAdapter {
    typealias Ticket = GuardedRefreshFeedRequest
    static var capabilities: PagerCapabilities { PagerCapabilities(triggers: [.refresh], stopsOnNoProgress: false) }
    var state = GuardedRefreshFeedState(query: "A")

    init() {}

    private func request(_ r: GuardedRefreshFeedRequest?) -> PageRequest<GuardedRefreshFeedRequest>? {
        r.map { PageRequest($0, page: $0.page) }
    }
    mutating func bottomReached() -> PageRequest<GuardedRefreshFeedRequest>? { request(state.reduce(.scrolledToBottom)) }
    mutating func retry() -> PageRequest<GuardedRefreshFeedRequest>? { request(state.reduce(.retryTapped)) }
    mutating func refresh() -> PageRequest<GuardedRefreshFeedRequest>? { request(state.reduce(.pulledToRefresh)) }
    mutating func changeQuery(to query: String) -> PageRequest<GuardedRefreshFeedRequest>? {
        request(state.reduce(.queryChanged(query)))
    }
    mutating func deliver(_ response: PageResponse, for ticket: GuardedRefreshFeedRequest) -> PageRequest<GuardedRefreshFeedRequest>? {
        request(state.reduce(.pageLoaded(ticket, ids: response.rows.map(\.id), hasMore: response.hasMore)))
    }
    mutating func fail(_ failure: PageFailure, for ticket: GuardedRefreshFeedRequest) -> PageRequest<GuardedRefreshFeedRequest>? {
        request(state.reduce(.pageFailed(ticket, cancelled: failure.isCancellation)))
    }
    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(visibleIDs: state.ids, isLoading: state.isLoading, hasMore: state.hasMore,
                      showsError: state.showsError)
    }
}
