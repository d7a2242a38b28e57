import PagerContracts

/// Runs `BuggyNotificationInboxViewModel` (the inbox written again from its bug's description:
/// a cancellation error handled before the check that its load is still current) against the
/// kit's async pager contracts, mapped as `NotificationInboxViewModelAdapter` maps the correct
/// one: the kit's query names round-robin onto the three tabs (A → all, B → mentions,
/// C → follows, D → all, …).
public struct BuggyNotificationInboxViewModelAdapter: AsyncPagerAdapter {
    public typealias ItemID = String

    public static var capabilities: PagerCapabilities { NotificationInboxViewModelAdapter.capabilities }

    let model: BuggyNotificationInboxViewModel

    public init(source: PageSource) async {
        model = await BuggyNotificationInboxViewModel(repository: KitNotificationRepository(source: source))
    }

    public func appear() async { await model.onAppear() }
    public func bottomReached() async { await model.lastRowAppeared() }
    public func changeQuery(to query: String) async { await model.select(NotificationInboxViewModelAdapter.filter(for: query)) }
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
