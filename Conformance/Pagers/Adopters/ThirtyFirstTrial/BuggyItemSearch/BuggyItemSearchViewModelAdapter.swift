import PagerContracts

/// The same adapter over the trial's buggy copy, whose completion checks "still loading, same
/// query" instead of the request's token.
public struct BuggyItemSearchViewModelAdapter: AsyncPagerAdapter {
    public static var capabilities: PagerCapabilities { ItemSearchViewModelAdapter.capabilities }

    let model: BuggyItemSearchViewModel
    let repository: KitBackedItemSearchRepository

    public init(source: PageSource) async {
        let repository = KitBackedItemSearchRepository(source: source)
        self.repository = repository
        model = await BuggyItemSearchViewModel(repository: repository, query: "A")
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
