import Observation
import PagerContracts

/// Mutant. Bug: a query change cancels the running load, and the load checks cancellation
/// only *before* its await, trusting that a cancelled request never completes. A cancelled
/// request's data (or failure) still arrives and is written to the new query's list.
@MainActor @Observable
final class ViewModelThatChecksCancellationBeforeTheAwait {
    typealias Loader = @Sendable (_ query: String, _ page: Int) async throws -> PageResponse

    private(set) var itemIDs: [Int] = []
    private(set) var errorShown = false
    @ObservationIgnored private var query = "A"
    @ObservationIgnored private var nextPage = 1
    @ObservationIgnored private var hasMore = true
    @ObservationIgnored private var loadTask: Task<Void, Never>?
    @ObservationIgnored private var emptyPagesInARow = 0
    @ObservationIgnored private let loader: Loader

    init(loader: @escaping Loader) {
        self.loader = loader
    }

    var isLoading: Bool { loadTask != nil }

    func loadNextPage() async {
        guard loadTask == nil, hasMore, emptyPagesInARow < 3 else { return }
        let task = Task { await self.load(page: nextPage, query: query) }
        loadTask = task
        await task.value
    }

    func search(_ newQuery: String) {
        loadTask?.cancel()
        loadTask = nil
        query = newQuery
        nextPage = 1
        hasMore = true
        errorShown = false
        emptyPagesInARow = 0
        itemIDs = []
    }

    private func load(page: Int, query: String) async {
        guard !Task.isCancelled else { return }  // BUG: the only staleness check, before the await
        do {
            let response = try await loader(query, page)
            var seen = Set(itemIDs)
            let added = response.rows.map(\.id).filter { seen.insert($0).inserted }
            itemIDs += added
            emptyPagesInARow = added.isEmpty ? emptyPagesInARow + 1 : 0
            nextPage += 1
            hasMore = response.hasMore
            errorShown = false
        } catch is CancellationError {
            return
        } catch {
            errorShown = true
        }
        loadTask = nil
    }
}

/// Drives ``ViewModelThatChecksCancellationBeforeTheAwait``.
struct ViewModelThatChecksCancellationBeforeTheAwaitAdapter: AsyncPagerAdapter {
    let model: ViewModelThatChecksCancellationBeforeTheAwait

    init(source: PageSource) async {
        model = await ViewModelThatChecksCancellationBeforeTheAwait(loader: {
            try await source.load(query: $0, page: $1)
        })
    }

    func bottomReached() async { await model.loadNextPage() }
    func changeQuery(to query: String) async { await model.search(query) }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.itemIDs, isLoading: model.isLoading, showsError: model.errorShown)
        }
    }
}
