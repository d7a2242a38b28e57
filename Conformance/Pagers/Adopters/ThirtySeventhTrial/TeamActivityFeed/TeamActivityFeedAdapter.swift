import PagerContracts

/// What both view models (the real one and the planted-bug copy) offer the view. A planted-bug
/// copy conforms with one line in its own folder, as the real one does below.
@MainActor
protocol ActivityFeedModel: AnyObject, Sendable {
    init(api: any ActivityFeedAPI, filter: ActivityFilter, pageSize: Int, prefetchDistance: Int)
    var items: [ActivityItem] { get }
    var isLoading: Bool { get }
    var hasNextPage: Bool { get }
    var errorMessage: String? { get }
    var hasCursorProblem: Bool { get }
    func onAppear() async
    func rowDidAppear(id: ActivityItem.ID) async
    func loadNextPage() async
    func retry() async
    func selectFilter(_ newFilter: ActivityFilter) async
    func refresh() async
}

extension TeamActivityFeedViewModel: ActivityFeedModel {}

/// The production `ActivityFeedAPI` seam, served by the kit's page source.
struct KitActivityAPI: ActivityFeedAPI {
    let source: PageSource

    func teamActivity(filter: ActivityFilter, first: Int, after cursor: String?) async throws -> ActivityConnection {
        let response = try await source.load(query: filter.rawValue, cursor: cursor)
        return ActivityConnection(
            edges: response.rows.map {
                ActivityItem(id: $0.stringID, actorName: "member", summary: $0.title, revision: $0.revision)
            },
            pageInfo: PageInfo(endCursor: response.nextCursor, hasNextPage: response.hasMore))
    }
}

/// Async-level adapter (Docs/AsyncSettling.md) around the real `@MainActor` view model.
/// The thirty-seventh trial's `ActivityFeedAdapter`, renamed after its folder; the registry names
/// `TeamActivityFeedAdapter<TeamActivityFeedViewModel>`.
struct TeamActivityFeedAdapter<Model: ActivityFeedModel>: AsyncPagerAdapter {
    typealias ItemID = String

    static var capabilities: PagerCapabilities {
        // Cursor API; pull to refresh; first load from `.task`/onAppear. The model never chains a
        // load by itself (every load comes from a row, the footer, a retry, a filter change or a
        // pull), and after a page that added nothing it waits for the user: Pagers.md says such a
        // pager declares `stopsOnNoProgress: false`. (It also ends the list on an empty page that
        // says "more"; the first run declared `noProgressLimit: 1` for that, see REPORT.md.)
        PagerCapabilities(pagination: .cursors, triggers: [.refresh, .appear], stopsOnNoProgress: false)
    }

    static func itemID(for row: PageRow) -> String { row.stringID }

    /// Kit queries "A", "B", "C", … map round-robin onto the two filter tabs.
    static func filter(for query: String) -> ActivityFilter {
        let index = Int(query.unicodeScalars.first?.value ?? 65) - 65
        return index.isMultiple(of: 2) ? .all : .mentionsOnly
    }

    let model: Model

    init(source: PageSource) async {
        model = await Model(
            api: KitActivityAPI(source: source), filter: Self.filter(for: "A"), pageSize: 25,
            prefetchDistance: 5)
    }

    func appear() async { await model.onAppear() }

    /// The last row appears (the view calls `rowDidAppear` per row; the last one is within the
    /// prefetch distance), or, with nothing shown yet, the footer appears.
    func bottomReached() async { await Self.reachBottom(of: model) }

    @MainActor private static func reachBottom(of model: Model) async {
        if let last = model.items.last {
            await model.rowDidAppear(id: last.id)
        } else {
            await model.loadNextPage()
        }
    }

    func changeQuery(to query: String) async { await model.selectFilter(Self.filter(for: query)) }
    func refresh() async { await model.refresh() }
    func retry() async { await model.retry() }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.items.map(\.id),
                isLoading: model.isLoading,
                hasMore: model.hasNextPage && !model.hasCursorProblem,
                showsError: model.errorMessage != nil,
                hasProtocolError: model.hasCursorProblem)
        }
    }
}
