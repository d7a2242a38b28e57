import ConformanceTesting
import Foundation

/// A pager whose load bridges a completion-handler client into `async` with a continuation,
/// the eighth outside round's shape: the trigger then waits where the kit cannot look.
final class ContinuationBridgedPager: @unchecked Sendable {
    typealias Client = @Sendable (String, Int, @escaping @Sendable (Result<PageResponse, any Error>) -> Void) -> Void

    private let lock = NSLock()
    private let client: Client
    private var items: [Int] = []
    private var loading = false
    private var nextPage = 1

    init(client: @escaping Client) { self.client = client }

    func loadNextPage() async {
        let page: Int? = lock.withLock {
            guard !loading else { return nil }
            loading = true
            return nextPage
        }
        guard let page else { return }
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<PageResponse, any Error>, Never>) in
            client("A", page) { continuation.resume(returning: $0) }
        }
        lock.withLock {
            loading = false
            if case .success(let response) = result {
                items += response.rows.map(\.id)
                nextPage += 1
            }
        }
    }

    var visible: [Int] { lock.withLock { items } }
    var isLoading: Bool { lock.withLock { loading } }
}

struct ContinuationBridgedPagerAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(loader: .completionHandler)

    let pager: ContinuationBridgedPager

    init(source: PageSource) async {
        pager = ContinuationBridgedPager { query, page, completion in
            source.load(query: query, page: page, completion: completion)
        }
    }

    func bottomReached() async { await pager.loadNextPage() }
    func changeQuery(to query: String) async throws {
        throw PagerAdapterError.unsupportedTrigger("changeQuery")
    }
    func snapshot() async -> PagerSnapshot<Int> {
        PagerSnapshot(visibleIDs: pager.visible, isLoading: pager.isLoading)
    }
}
