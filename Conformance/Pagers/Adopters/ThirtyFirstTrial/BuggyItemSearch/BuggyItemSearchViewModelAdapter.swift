import PagerContracts

/// The same adapter over the trial's buggy copy, whose completion checks "still loading, same
/// query" instead of the request's token.
struct BuggyItemSearchViewModelAdapter: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities { ItemSearchViewModelAdapter.capabilities }

    let model: BuggyItemSearchViewModel
    let repository: KitBackedItemSearchRepository

    init(source: PageSource) async {
        let repository = KitBackedItemSearchRepository(source: source)
        self.repository = repository
        model = await BuggyItemSearchViewModel(repository: repository, query: "A")
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
