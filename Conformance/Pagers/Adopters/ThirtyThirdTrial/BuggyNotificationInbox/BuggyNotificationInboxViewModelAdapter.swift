import PagerContracts

/// Runs `BuggyNotificationInboxViewModel` (the inbox written again from its bug's description:
/// a cancellation error handled before the check that its load is still current) against the
/// kit's async pager contracts, mapped as `NotificationInboxViewModelAdapter` maps the correct
/// one: the kit's query names round-robin onto the three tabs (A → all, B → mentions,
/// C → follows, D → all, …).
public struct BuggyNotificationInboxViewModelAdapter: AsyncPagerAdapter {
    public typealias ItemID = String

    public static var capabilities: PagerCapabilities {
        PagerCapabilities(
            pagination: .cursors,
            triggers: [.refresh, .appear],
            // The view model never chains a load by itself; after a page that adds nothing it
            // waits for the next trigger.
            stopsOnNoProgress: false)
    }

    let model: BuggyNotificationInboxViewModel

    public init(source: PageSource) async {
        model = await BuggyNotificationInboxViewModel(repository: KitNotificationRepository(source: source))
    }

    static func filter(for query: String) -> NotificationFilter {
        let index = Int(query.unicodeScalars.first?.value ?? 65) - 65
        let all = NotificationFilter.allCases
        return all[index % all.count]
    }

    public func appear() async { await model.onAppear() }
    public func bottomReached() async { await model.lastRowAppeared() }
    public func changeQuery(to query: String) async { await model.select(Self.filter(for: query)) }
    public func refresh() async { await model.refresh() }
    public func retry() async { await model.retry() }

    public func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.items.map(\.id),
                isLoading: model.isLoading,
                hasMore: model.hasMore,
                showsError: model.loadError != nil)
        }
    }

    public static func itemID(for row: PageRow) -> String { row.stringID }
}
