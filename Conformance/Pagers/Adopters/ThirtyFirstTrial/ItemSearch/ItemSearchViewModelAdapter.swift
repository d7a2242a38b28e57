import PagerContracts
import Foundation

/// Runs the thirty-first trial's `ItemSearchViewModel` (keyset pagination, a per-query cache,
/// completions on the main queue) against the kit's async pager contracts, through
/// ``KitBackedItemSearchRepository``, which maps "after item X" onto the kit's page numbers.
struct ItemSearchViewModelAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers,
        triggers: [.refresh],
        noProgressLimit: 1,          // keyset: a page adding nothing ends the list
        loader: .completionHandler
    )

    let model: ItemSearchViewModel
    let repository: KitBackedItemSearchRepository

    init(source: PageSource) async {
        let repository = KitBackedItemSearchRepository(source: source)
        self.repository = repository
        model = await ItemSearchViewModel(repository: repository, query: "A")
    }

    func bottomReached() async { await model.loadNextPage() }
    func changeQuery(to query: String) async {
        repository.beginNewList()
        await model.search(query)
    }
    func refresh() async {
        repository.beginNewList()
        await model.refresh()
    }
    func retry() async { await model.retry() }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.items.map(\.id),
                isLoading: model.isLoading,
                hasMore: model.hasMore,
                showsError: model.errorMessage != nil)
        }
    }
}
