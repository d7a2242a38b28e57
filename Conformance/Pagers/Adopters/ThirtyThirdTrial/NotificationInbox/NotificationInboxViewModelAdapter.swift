import PagerContracts

/// The repository the app would inject, backed by the kit's page source instead of the network
/// (the trial's own, with the module names dropped). The app's API has no `hasMore`: a `nil`
/// next cursor ends the list.
struct KitNotificationRepository: NotificationRepository {
    let source: PageSource

    func page(filter: NotificationFilter, cursor: String?) async throws -> NotificationPage {
        let response = try await source.load(query: filter.rawValue, cursor: cursor)
        return NotificationPage(
            items: response.rows.map { NotificationItem(id: $0.stringID, kind: .mention, title: $0.title) },
            nextCursor: response.hasMore ? response.nextCursor : nil)
    }
}

/// Runs the thirty-third trial's `NotificationInboxViewModel` (a stored load `Task` cancelled on
/// a tab switch or a refresh, a generation counter, three filter tabs) against the kit's async
/// pager contracts. The kit's query names map round-robin onto the three tabs (A → all,
/// B → mentions, C → follows, D → all, …): two names in a row never land on the same tab.
public struct NotificationInboxViewModelAdapter: AsyncPagerAdapter {
    public typealias ItemID = String

    public static var capabilities: PagerCapabilities {
        PagerCapabilities(
            pagination: .cursors,
            triggers: [.refresh, .appear],
            // The view model never chains a load by itself; after a page that adds nothing it
            // waits for the next trigger.
            stopsOnNoProgress: false)
    }

    let model: NotificationInboxViewModel

    public init(source: PageSource) async {
        model = await NotificationInboxViewModel(repository: KitNotificationRepository(source: source))
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
