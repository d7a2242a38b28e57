import Observation
import PagerContracts

/// An `@MainActor @Observable` view model with async/await, as a SwiftUI app writes it. The
/// generation captured before each await decides whether the response may touch the list.
@MainActor @Observable
final class FeedViewModel {
    typealias Loader = @Sendable (_ query: String, _ page: Int) async throws -> PageResponse

    private(set) var itemIDs: [Int] = []
    private(set) var isLoading = false
    private(set) var errorMessage: String?
    private(set) var hasMore = true
    private(set) var isStalled = false

    @ObservationIgnored private var query = "A"
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private var nextPage = 1
    @ObservationIgnored private var emptyPagesInARow = 0
    @ObservationIgnored private var replaceOnNextPage = false
    @ObservationIgnored private let loader: Loader

    init(loader: @escaping Loader) {
        self.loader = loader
    }

    func loadNextPage() async {
        guard !isLoading, hasMore, !isStalled else { return }
        isLoading = true
        let generation = self.generation
        let page = nextPage
        do {
            let response = try await loader(query, page)
            guard generation == self.generation else { return }
            accept(response)
        } catch {
            guard generation == self.generation else { return }
            isLoading = false
            errorMessage = String(describing: error)
        }
    }

    func search(_ newQuery: String) async {
        query = newQuery
        restart()
        itemIDs = []
        await loadNextPage()
    }

    func refresh() async {
        restart()
        replaceOnNextPage = true
        await loadNextPage()
    }

    func fillScreen(minimumCount: Int) async {
        repeat {
            await loadNextPage()
        } while itemIDs.count < minimumCount && hasMore && !isStalled && errorMessage == nil
            && !isLoading
    }

    private func accept(_ response: PageResponse) {
        if replaceOnNextPage {
            itemIDs = []
            replaceOnNextPage = false
        }
        var seen = Set(itemIDs)
        let added = response.rows.map(\.id).filter { seen.insert($0).inserted }
        itemIDs += added
        emptyPagesInARow = added.isEmpty ? emptyPagesInARow + 1 : 0
        nextPage += 1
        hasMore = response.hasMore
        isStalled = hasMore && emptyPagesInARow >= 3
        isLoading = false
        errorMessage = nil
    }

    private func restart() {
        generation += 1
        nextPage = 1
        hasMore = true
        isLoading = false
        isStalled = false
        errorMessage = nil
        emptyPagesInARow = 0
    }
}

/// Drives ``FeedViewModel``.
struct FeedViewModelAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(triggers: [.refresh, .fillScreen])

    let model: FeedViewModel

    init(source: PageSource) async {
        model = await FeedViewModel(loader: { try await source.load(query: $0, page: $1) })
    }

    func bottomReached() async { await model.loadNextPage() }
    func changeQuery(to query: String) async { await model.search(query) }
    func refresh() async { await model.refresh() }
    func fillScreen() async { await model.fillScreen(minimumCount: 9) }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.itemIDs, isLoading: model.isLoading, hasMore: model.hasMore,
                showsError: model.errorMessage != nil, hasProtocolError: model.isStalled)
        }
    }
}
