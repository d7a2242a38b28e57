import Dispatch
import Foundation
import PagerContracts

/// Runs `BuggyCatalogSearchResultsController` (the thirty-fourth trial's search-results
/// controller with one deliberate bug: `refresh()` keeps the set of already-shown IDs, so the
/// refreshed first page's rows are dropped as duplicates) against the kit's async pager
/// contracts. Offsets map to the kit's page numbers through `CatalogSearchPageSourceAPI`'s table,
/// as in `CatalogSearchResultsAdapter`.
struct BuggyCatalogSearchResultsAdapter: CatalogSearchScreenAdapter {
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
}

extension BuggyCatalogSearchResultsController: CatalogSearchScreen {}
