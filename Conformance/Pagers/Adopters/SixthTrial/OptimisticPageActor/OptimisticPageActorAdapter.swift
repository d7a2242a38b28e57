import PagerContracts
import Foundation

struct OPASourceService: OPAPageService {
    let source: PageSource
    func fetchPage(query: String, page: Int) async throws -> OPAPage {
        let response = try await source.load(query: query, page: page)
        return OPAPage(
            entries: response.rows.map { OPAEntry(id: $0.uuid, text: $0.title) },
            isLastPage: !response.hasMore)
    }
}

struct OptimisticPageActorAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers, triggers: [.appear, .refresh], stopsOnNoProgress: false)

    let pager: OptimisticPageActor

    init(source: PageSource) async {
        pager = OptimisticPageActor(service: OPASourceService(source: source), query: "A")
    }

    static func itemID(for row: PageRow) -> UUID { row.uuid }

    func appear() async { await pager.start() }
    func bottomReached() async { await pager.loadMore() }
    func changeQuery(to query: String) async { await pager.setQuery(query) }
    func refresh() async { await pager.refresh() }
    func retry() async { await pager.retry() }

    func snapshot() async -> PagerSnapshot<UUID> {
        let s = await pager.snapshot()
        return PagerSnapshot(
            visibleIDs: s.entries.map(\.id), isLoading: s.isLoading, hasMore: !s.reachedEnd,
            showsError: s.errorDescription != nil)
    }
}
