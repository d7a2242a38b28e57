import Foundation
import PagerContracts

/// A pre-concurrency controller with completion handlers and a lock, as many UIKit apps still
/// have. The completion can run twice (a buggy network layer), so the token check matters.
///
/// The mutant `CallbackControllerThatMarksLoadingAfterTheCall` is this controller with one
/// ``CallbackFeedControllerDefect``; the branch that reads it is marked `// Mutant:`.
final class CallbackFeedController: @unchecked Sendable {
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
    private let defect: CallbackFeedControllerDefect?
    private var ids: [Int] = []
    private var loading: Token?
    private var failed = false
    private var hasMore = true
    private var query = "A"
    private var generation = 0
    private var nextPage = 1
    private var emptyPagesInARow = 0

    /// Creates a controller that loads pages through `load`.
    /// - Parameters:
    ///   - load: The loading layer: calls the completion once per answer, later or at once.
    ///   - defect: The bug of a mutant; `nil` for the app's real controller.
    init(load: @escaping Load, defect: CallbackFeedControllerDefect? = nil) {
        self.load = load
        self.defect = defect
    }

    func loadMore() {
        lock.lock()
        guard loading == nil, hasMore, emptyPagesInARow < 3 else {
            lock.unlock()
            return
        }
        let token = Token(generation: generation, page: nextPage)
        if defect != .marksLoadingAfterTheCall { loading = token }
        let query = self.query
        lock.unlock()
        load(query, token.page) { [weak self] result in self?.complete(token, result) }
        if defect == .marksLoadingAfterTheCall {
            lock.withLock { loading = token }  // Mutant: too late if the completion already ran.
        }
    }

    func setQuery(_ newQuery: String) {
        lock.lock()
        defer { lock.unlock() }
        query = newQuery
        generation += 1
        nextPage = 1
        ids = []
        loading = nil
        failed = false
        hasMore = true
        emptyPagesInARow = 0
    }

    var state: (ids: [Int], loading: Bool, failed: Bool, hasMore: Bool) {
        lock.lock()
        defer { lock.unlock() }
        return (ids, loading != nil, failed, hasMore)
    }

    private func complete(_ token: Token, _ result: Result<PageResponse, any Error>) {
        lock.lock()
        defer { lock.unlock() }
        guard token == loading else { return }
        loading = nil
        switch result {
        case .success(let response):
            var seen = Set(ids)
            let added = response.rows.map(\.id).filter { seen.insert($0).inserted }
            ids += added
            emptyPagesInARow = added.isEmpty ? emptyPagesInARow + 1 : 0
            nextPage += 1
            // Three pages in a row without a new item: the stall shows as the end of the list.
            hasMore = response.hasMore && emptyPagesInARow < 3
            failed = false
        case .failure:
            failed = true
        }
    }
}

/// Drives ``CallbackFeedController``: completion-handler loads, so P3 applies.
struct CallbackFeedControllerAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(loader: .completionHandler)

    let controller: CallbackFeedController

    init(source: PageSource) async {
        controller = CallbackFeedController(load: { query, page, completion in
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
