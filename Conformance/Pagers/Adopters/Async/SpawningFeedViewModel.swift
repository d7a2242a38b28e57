import Observation
import PagerContracts

/// Records what the user saw; the view model awaits it in the middle of a load.
actor ImpressionLog {
    private(set) var entries: [String] = []

    func record(_ entry: String) {
        entries.append(entry)
    }
}

/// A view model that spawns its load, keeps working (logs an impression on another actor),
/// and only then awaits the load: the trigger is neither parked nor joined while it works.
@MainActor @Observable
final class SpawningFeedViewModel {
    typealias Loader = @Sendable (_ query: String, _ page: Int) async throws -> PageResponse

    private(set) var itemIDs: [Int] = []
    private(set) var isLoading = false
    private(set) var failed = false
    private(set) var hasMore = true

    @ObservationIgnored private var query = "A"
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var nextPage = 1
    @ObservationIgnored private var emptyPagesInARow = 0
    @ObservationIgnored private let loader: Loader
    @ObservationIgnored let impressions = ImpressionLog()

    init(loader: @escaping Loader) {
        self.loader = loader
    }

    func loadNextPage() async {
        guard !isLoading, hasMore, emptyPagesInARow < 3 else { return }
        isLoading = true
        let generation = self.generation
        let (query, page, loader) = (self.query, nextPage, self.loader)
        let request = Task { try await loader(query, page) }
        await impressions.record("requested page \(page) of \(query)")
        let result = await request.result
        guard generation == self.generation else { return }
        isLoading = false
        switch result {
        case .success(let response):
            var seen = Set(itemIDs)
            let added = response.rows.map(\.id).filter { seen.insert($0).inserted }
            itemIDs += added
            emptyPagesInARow = added.isEmpty ? emptyPagesInARow + 1 : 0
            nextPage += 1
            // Three pages in a row without a new item: the stall shows as the end of the list.
            hasMore = response.hasMore && emptyPagesInARow < 3
            failed = false
        case .failure:
            failed = true
        }
    }

    func search(_ newQuery: String) async {
        query = newQuery
        generation += 1
        nextPage = 1
        hasMore = true
        isLoading = false
        failed = false
        emptyPagesInARow = 0
        itemIDs = []
        await loadNextPage()
    }
}

/// Drives ``SpawningFeedViewModel``.
struct SpawningFeedViewModelAdapter: AsyncPagerAdapter {
    let model: SpawningFeedViewModel

    init(source: PageSource) async {
        model = await SpawningFeedViewModel(loader: { try await source.load(query: $0, page: $1) })
    }

    func bottomReached() async { await model.loadNextPage() }
    func changeQuery(to query: String) async { await model.search(query) }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.itemIDs, isLoading: model.isLoading, hasMore: model.hasMore,
                showsError: model.failed)
        }
    }
}
