import PagerContracts
import Foundation

/// Runs the thirty-first trial's `ItemSearchViewModel` (keyset pagination, a per-query cache,
/// completions on the main queue) against the kit's async pager contracts, through
/// ``KitBackedItemSearchRepository``, which maps "after item X" onto the kit's page numbers.
public struct ItemSearchViewModelAdapter: AsyncPagerAdapter {
    public static let capabilities = PagerCapabilities(
        pagination: .pageNumbers,
        triggers: [.refresh],
        noProgressLimit: 1,          // keyset: a page adding nothing ends the list
        loader: .completionHandler
    )

    let model: ItemSearchViewModel
    let repository: KitBackedItemSearchRepository

    public init(source: PageSource) async {
        let repository = KitBackedItemSearchRepository(source: source)
        self.repository = repository
        model = await ItemSearchViewModel(repository: repository, query: "A")
    }

    public func bottomReached() async { await model.loadNextPage() }
    public func changeQuery(to query: String) async {
        repository.beginNewList()
        await model.search(query)
    }
    public func refresh() async {
        repository.beginNewList()
        await model.refresh()
    }
    public func retry() async { await model.retry() }

    public func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.items.map(\.id),
                isLoading: model.isLoading,
                hasMore: model.hasMore,
                showsError: model.errorMessage != nil)
        }
    }
}
