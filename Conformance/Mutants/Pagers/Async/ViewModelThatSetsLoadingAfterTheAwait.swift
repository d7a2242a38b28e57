import Observation
import PagerContracts

/// Mutant. Bug: the in-flight flag is set when the response arrives ("show the spinner while
/// we process the page") instead of before the request, so a bottom trigger during the load
/// passes the guard and requests the same page again.
@MainActor @Observable
final class ViewModelThatSetsLoadingAfterTheAwait {
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

    init(loader: @escaping Loader) {
        self.loader = loader
    }

    func loadNextPage() async {
        guard !isLoading, hasMore, emptyPagesInARow < 3 else { return }
        let generation = self.generation
        do {
            let response = try await loader(query, nextPage)
            isLoading = true  // BUG: set after the await, so the guard above never sees it
            guard generation == self.generation else { return }
            var seen = Set(itemIDs)
            let added = response.rows.map(\.id).filter { seen.insert($0).inserted }
            itemIDs += added
            emptyPagesInARow = added.isEmpty ? emptyPagesInARow + 1 : 0
            nextPage += 1
            // Three pages in a row without a new item: the stall shows as the end of the list.
            hasMore = response.hasMore && emptyPagesInARow < 3
            failed = false
        } catch {
            guard generation == self.generation else { return }
            failed = true
        }
        isLoading = false
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

/// Drives ``ViewModelThatSetsLoadingAfterTheAwait``.
struct ViewModelThatSetsLoadingAfterTheAwaitAdapter: AsyncPagerAdapter {
    let model: ViewModelThatSetsLoadingAfterTheAwait

    init(source: PageSource) async {
        model = await ViewModelThatSetsLoadingAfterTheAwait(loader: {
            try await source.load(query: $0, page: $1)
        })
    }

    func bottomReached() async { await model.loadNextPage() }
    func changeQuery(to query: String) async { await model.search(query) }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(visibleIDs: model.itemIDs, hasMore: model.hasMore, showsError: model.failed)
        }
    }
}
