import Dispatch
import Foundation
import PagerContracts

/// A CatalogSearchCancellable the kit's page source cannot honour (the timeline decides every answer).
final class CatalogSearchNoopCancellable: CatalogSearchCancellable {
    func cancel() {}
}

final class CatalogSearchCompletionBox<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// The app's `CatalogSearchAPI`, served by the kit's `PageSource`.
/// Offset/limit -> page numbers through a table per list (Pagers.md, "Offset and limit"):
/// offset 0 is page 1; the offset right after an answered page of the current list is that
/// page's number + 1. A new table on every query change and refresh; only answers to requests
/// of the current list write it, and an entry never moves back.
final class CatalogSearchPageSourceAPI: CatalogSearchAPI, @unchecked Sendable {
    let source: PageSource
    private let lock = NSLock()
    private var generation = 0
    private var table: [Int: Int] = [0: 1]

    init(source: PageSource) { self.source = source }

    func startNewList() {
        lock.lock(); defer { lock.unlock() }
        generation += 1
        table = [0: 1]
    }

    private func page(forOffset offset: Int) -> Int {
        if let page = table[offset] { return page }
        // An offset this list never reached: the page after the closest known one below it.
        let below = table.keys.filter { $0 < offset }.max() ?? 0
        return (table[below] ?? 1) + 1
    }

    func search(
        query: String, offset: Int, limit: Int,
        completion: @escaping (Result<CatalogSearchResponse, Error>) -> Void
    ) -> CatalogSearchCancellable {
        lock.lock()
        let requestGeneration = generation
        let page = page(forOffset: offset)
        lock.unlock()
        let completion = CatalogSearchCompletionBox(completion)
        source.load(query: query, page: page) { [self] result in
            if case .success(let response) = result {
                lock.lock()
                if requestGeneration == generation {
                    let key = offset + response.rows.count
                    table[key] = max(table[key] ?? 0, page + 1)
                }
                lock.unlock()
            }
            completion.value(result.map { response in
                CatalogSearchResponse(
                    items: response.rows.map { CatalogSearchResult(id: $0.id, title: $0.title) },
                    hasMore: response.hasMore)
            })
        }
        return CatalogSearchNoopCancellable()
    }
}

let catalogSearchCapabilities = PagerCapabilities(
    triggers: [.refresh],
    noProgressLimit: 3,
    loader: .completionHandlerMayCallBackSynchronously)

/// The screen's fill target in the adapters (kit pages have a few rows each).
let catalogSearchMinimumVisibleRows = 5

/// What the adapters call on a search controller: the screen's intents and what it shows.
protocol CatalogSearchScreen: AnyObject, Sendable {
    var items: [CatalogSearchResult] { get }
    var isLoading: Bool { get }
    var hasMore: Bool { get }
    var showsError: Bool { get }
    func lastRowWillDisplay()
    func setQuery(_ query: String)
    func refresh()
    func retry()
}

extension CatalogSearchResultsController: CatalogSearchScreen {}

/// An adapter over a `CatalogSearchScreen`: every intent on the main actor, as the view
/// controller calls it, and a new offset table before a query change or a refresh.
protocol CatalogSearchScreenAdapter: AsyncPagerAdapter {
    associatedtype Screen: CatalogSearchScreen
    var api: CatalogSearchPageSourceAPI { get }
    var controller: Screen { get }
}

extension CatalogSearchScreenAdapter {
    static var capabilities: PagerCapabilities { catalogSearchCapabilities }

    func bottomReached() async { await MainActor.run { controller.lastRowWillDisplay() } }

    func changeQuery(to query: String) async {
        api.startNewList()
        await MainActor.run { controller.setQuery(query) }
    }

    func refresh() async {
        api.startNewList()
        await MainActor.run { controller.refresh() }
    }

    func retry() async { await MainActor.run { controller.retry() } }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: controller.items.map(\.id), isLoading: controller.isLoading,
                hasMore: controller.hasMore, showsError: controller.showsError)
        }
    }
}

/// Runs the thirty-fourth trial's `CatalogSearchResultsController` (a UIKit-era controller over a
/// completion-handler offset/limit API, state changes on the main queue, a fill-the-screen chain
/// of main-queue hops) against the kit's async pager contracts. Offsets map to the kit's page
/// numbers through `CatalogSearchPageSourceAPI`'s table.
struct CatalogSearchResultsAdapter: CatalogSearchScreenAdapter {
    let api: CatalogSearchPageSourceAPI
    let controller: CatalogSearchResultsController

    init(source: PageSource) async {
        let api = CatalogSearchPageSourceAPI(source: source)
        self.api = api
        controller = await MainActor.run {
            CatalogSearchResultsController(
                api: api, query: "A", pageSize: 20, minimumVisibleRows: catalogSearchMinimumVisibleRows)
        }
    }
}
