import PagerContracts

/// Drives the `ActivityTimeline` state machine at the model level: the ticket is the
/// timeline's own (generation, page, serial).
struct ActivityTimelineAdapter: PagerModelAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers,
        triggers: [.refresh],
        stopsOnNoProgress: false)  // never chains a load by itself: waits for the next trigger

    var timeline = ActivityTimeline(filter: "A")

    mutating func bottomReached() -> PageRequest<ActivityTimeline.Ticket>? {
        timeline.scrolledToBottom().map(Self.request)
    }

    mutating func retry() -> PageRequest<ActivityTimeline.Ticket>? {
        timeline.retryTapped().map(Self.request)
    }

    mutating func refresh() -> PageRequest<ActivityTimeline.Ticket>? {
        timeline.pulledToRefresh().map(Self.request)
    }

    mutating func changeQuery(to query: String) -> PageRequest<ActivityTimeline.Ticket>? {
        timeline.filterChanged(to: query).map(Self.request)
    }

    mutating func deliver(_ response: PageResponse, for ticket: ActivityTimeline.Ticket)
        -> PageRequest<ActivityTimeline.Ticket>?
    {
        timeline.pageLoaded(
            ReactionActivityPage(items: response.rows.map(Self.item), hasMore: response.hasMore), for: ticket)
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: ActivityTimeline.Ticket)
        -> PageRequest<ActivityTimeline.Ticket>?
    {
        timeline.pageFailed(failure.isCancellation ? .cancelled : .network, for: ticket)
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: timeline.items.map(\.id),
            isLoading: timeline.isLoading,
            hasMore: timeline.status != .ended,
            showsError: timeline.status == .failed)
    }

    private static func request(_ ticket: ActivityTimeline.Ticket) -> PageRequest<ActivityTimeline.Ticket> {
        PageRequest(ticket, page: ticket.page)
    }

    /// The kit's rows carry only a number; the other fields are made from it, as a decoder
    /// fills them from the JSON.
    private static func item(_ row: PageRow) -> ReactionActivityItem {
        ReactionActivityItem(
            id: row.id, actorName: "user\(row.id % 7)", summary: row.title,
            reactionCount: row.id % 5, isUnread: row.id.isMultiple(of: 2))
    }
}
