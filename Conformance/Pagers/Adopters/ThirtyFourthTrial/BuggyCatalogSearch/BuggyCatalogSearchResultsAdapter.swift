import Dispatch
import Foundation
import PagerContracts

/// Runs `BuggyCatalogSearchResultsController` (the thirty-fourth trial's search-results
/// controller with one deliberate bug: `refresh()` keeps the set of already-shown IDs, so the
/// refreshed first page's rows are dropped as duplicates) against the kit's async pager
/// contracts. Offsets map to the kit's page numbers through `CatalogSearchPageSourceAPI`'s table,
/// as in `CatalogSearchResultsAdapter`.
struct BuggyCatalogSearchResultsAdapter: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities { catalogSearchCapabilities }
    let api: CatalogSearchPageSourceAPI
    let controller: BuggyCatalogSearchResultsController

    init(source: PageSource) async {
        let api = CatalogSearchPageSourceAPI(source: source)
        self.api = api
        controller = await MainActor.run {
            BuggyCatalogSearchResultsController(
                api: api, query: "A", pageSize: 20, minimumVisibleRows: catalogSearchMinimumVisibleRows)
        }
    }

    func bottomReached() async { await MainActor.run { controller.lastRowWillDisplay() } }
    func changeQuery(to query: String) async {
        api.startNewList()
        await MainActor.run { controller.setQuery(query) }
    }
    func refresh() async {
        api.startNewList()
        await MainActor.run { controller.refresh() }
    }
    func retry() async { await MainActor.run { controller.retry() } }
    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: controller.items.map(\.id), isLoading: controller.isLoading,
                hasMore: controller.hasMore, showsError: controller.showsError)
        }
    }
}
