import Observation
import PagerContracts

/// A view model whose load runs in a stored task: a second trigger joins the running load
/// (awaits the same task) instead of being ignored, and a query change cancels it.
@MainActor @Observable
final class JoiningFeedViewModel {
    typealias Loader = @Sendable (_ query: String, _ page: Int) async throws -> PageResponse

    private(set) var itemIDs: [String] = []
    private(set) var errorShown = false
    private var hasMore = true

    @ObservationIgnored private var query = "A"
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var nextPage = 1
    @ObservationIgnored private var emptyPagesInARow = 0
    @ObservationIgnored private var loadTask: Task<Void, Never>?
    @ObservationIgnored private let loader: Loader

    init(loader: @escaping Loader) {
        self.loader = loader
    }

    var isLoading: Bool { loadTask != nil }

    func loadNextPage() async {
        if let running = loadTask {
            await running.value
            return
        }
        guard hasMore, emptyPagesInARow < 3 else { return }
        let task = Task { await self.load(page: nextPage, generation: generation, query: query) }
        loadTask = task
        await task.value
    }

    func search(_ newQuery: String) {
        loadTask?.cancel()
        loadTask = nil
        query = newQuery
        generation += 1
        nextPage = 1
        hasMore = true
        errorShown = false
        emptyPagesInARow = 0
        itemIDs = []
    }

    private func load(page: Int, generation: Int, query: String) async {
        do {
            let response = try await loader(query, page)
            guard generation == self.generation else { return }
            let fresh = response.rows.map(\.stringID).filter { !itemIDs.contains($0) }
            var seen = Set<String>()
            let added = fresh.filter { seen.insert($0).inserted }
            itemIDs += added
            emptyPagesInARow = added.isEmpty ? emptyPagesInARow + 1 : 0
            nextPage += 1
            hasMore = response.hasMore
            errorShown = false
        } catch {
            guard generation == self.generation else { return }
            errorShown = true
        }
        loadTask = nil
    }
}

/// Drives ``JoiningFeedViewModel``: String IDs; the query change waits for the next trigger.
struct JoiningFeedViewModelAdapter: AsyncPagerAdapter {
    let model: JoiningFeedViewModel

    init(source: PageSource) async {
        model = await JoiningFeedViewModel(loader: { try await source.load(query: $0, page: $1) })
    }

    func bottomReached() async { await model.loadNextPage() }
    func changeQuery(to query: String) async { await model.search(query) }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.itemIDs, isLoading: model.isLoading, showsError: model.errorShown)
        }
    }

    static func itemID(for row: PageRow) -> String { row.stringID }
}
