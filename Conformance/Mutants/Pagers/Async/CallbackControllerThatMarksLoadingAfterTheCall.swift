import Foundation
import PagerContracts

/// Mutant. Bug: its loading layer answers from an in-memory cache synchronously (declared as
/// `.completionHandlerMayCallBackSynchronously`), but the controller records its in-flight token
/// *after* calling the loader, assuming the completion always runs later. A cached page runs
/// the completion inside the call, finds no matching token and is dropped; the token set
/// afterwards then blocks every later load. Correct under every other delivery.
final class CallbackControllerThatMarksLoadingAfterTheCall: @unchecked Sendable {
    typealias Load = (
        _ query: String, _ page: Int,
        _ completion: @escaping @Sendable (Result<PageResponse, any Error>) -> Void
    ) -> Void

    private struct Token: Equatable {
        let generation: Int
        let page: Int
    }

    private let lock = NSLock()
    private let load: Load
    private var ids: [Int] = []
    private var loading: Token?
    private var failed = false
    private var hasMore = true
    private var query = "A"
    private var generation = 0
    private var nextPage = 1
    private var emptyPagesInARow = 0

    init(load: @escaping Load) {
        self.load = load
    }

    func loadMore() {
        lock.lock()
        guard loading == nil, hasMore, emptyPagesInARow < 3 else {
            lock.unlock()
            return
        }
        let token = Token(generation: generation, page: nextPage)
        let query = self.query
        lock.unlock()
        load(query, token.page) { [weak self] result in self?.complete(token, result) }
        lock.withLock { loading = token }  // BUG: too late if the completion already ran
    }

    func setQuery(_ newQuery: String) {
        lock.withLock {
            query = newQuery
            generation += 1
            nextPage = 1
            ids = []
            loading = nil
            failed = false
            hasMore = true
            emptyPagesInARow = 0
        }
    }

    var state: (ids: [Int], loading: Bool, failed: Bool, hasMore: Bool) {
        lock.withLock { (ids, loading != nil, failed, hasMore) }
    }

    private func complete(_ token: Token, _ result: Result<PageResponse, any Error>) {
        lock.withLock {
            guard token == loading else { return }
            loading = nil
            switch result {
            case .success(let response):
                var seen = Set(ids)
                let added = response.rows.map(\.id).filter { seen.insert($0).inserted }
                ids += added
                emptyPagesInARow = added.isEmpty ? emptyPagesInARow + 1 : 0
                nextPage += 1
                hasMore = response.hasMore
                failed = false
            case .failure:
                failed = true
            }
        }
    }
}

/// Drives ``CallbackControllerThatMarksLoadingAfterTheCall``.
struct CallbackControllerThatMarksLoadingAfterTheCallAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(loader: .completionHandlerMayCallBackSynchronously)

    let controller: CallbackControllerThatMarksLoadingAfterTheCall

    init(source: PageSource) async {
        controller = CallbackControllerThatMarksLoadingAfterTheCall(load: { query, page, completion in
            source.load(query: query, page: page, completion: completion)
        })
    }

    func bottomReached() async { controller.loadMore() }
    func changeQuery(to query: String) async { controller.setQuery(query) }

    func snapshot() async -> PagerSnapshot<Int> {
        let state = controller.state
        return PagerSnapshot(
            visibleIDs: state.ids, isLoading: state.loading, hasMore: state.hasMore,
            showsError: state.failed)
    }
}
