import PagerContracts

/// The kit's page source stands in for the catalog search endpoint.
struct KitCatalogService: CatalogService {
    let source: PageSource

    func entries(matching query: String, after cursor: String?) async throws -> CatalogSlice {
        let response = try await source.load(query: query, cursor: cursor)
        // The kit says `hasMore`; the catalog API only has a cursor. A page that says "more"
        // without a cursor is passed on as the API would see it: no cursor, the end.
        return CatalogSlice(
            entries: response.rows.map { CatalogEntry(id: $0.id, name: $0.title) },
            nextCursor: response.hasMore ? response.nextCursor : nil)
    }
}

/// Adapts the eleventh trial's `CatalogViewModel`, a `@MainActor` mirror of an actor loader, as
/// its author adapted it from the docs alone.
struct CatalogViewModelAdapter: AsyncPagerAdapter {
    let model: CatalogViewModel

    static var capabilities: PagerCapabilities {
        PagerCapabilities(
            pagination: .cursors, triggers: [.refresh],
            stopsOnNoProgress: false, detectsCursorCycles: false)
    }

    init(source: PageSource) async {
        model = await CatalogViewModel(service: KitCatalogService(source: source), query: "A")
    }

    func bottomReached() async { await model.loadMore() }
    func changeQuery(to query: String) async { await model.search(query) }
    func refresh() async { await model.refresh() }
    func retry() async { await model.retry() }

    /// Reads the loader, the model's source of truth: the model mirrors it through a task of
    /// its own that the kit cannot see, so it may lag a step behind.
    func snapshot() async -> PagerSnapshot<Int> {
        let state = await model.loader.currentSnapshot()
        return PagerSnapshot(
            visibleIDs: state.entries.map(\.id), isLoading: state.activity != .idle,
            hasMore: !state.reachedEnd || state.failure != nil, showsError: state.failure != nil)
    }
}
