import PagerContracts
import Foundation

/// An `ItemSearchRepository` over the kit's `PageSource`.
///
/// The kit serves page numbers; the app asks "after item X" (keyset). Within one list generation
/// (the adapter starts a new one on every search and refresh), the page after item X is the
/// page after the one on which X was first served. The generation a request was made in is
/// remembered so late answers of earlier generations never write the current table.
final class KitBackedItemSearchRepository: ItemSearchRepository, @unchecked Sendable {
    private let source: PageSource
    private let lock = NSLock()
    private var generation = 0
    /// Current generation: item ID -> page number that follows it.
    private var pageAfter: [Int: Int] = [:]
    /// Every generation, by query text (a request after an ID the current list never served,
    /// e.g. a bug that resumes an earlier visit, is mapped where that visit would have gone).
    private var pageAfterEver: [String: [Int: Int]] = [:]

    init(source: PageSource) { self.source = source }

    /// Call before the model starts a new list (search or refresh).
    func beginNewList() {
        lock.withLock {
            generation += 1
            pageAfter = [:]
        }
    }

    func fetch(
        query: String,
        after lastID: SearchItem.ID?,
        limit: Int,
        completion: @escaping @MainActor @Sendable (Result<SearchPage, Error>) -> Void
    ) {
        let (page, requestGeneration): (Int, Int) = lock.withLock {
            guard let lastID else { return (1, generation) }
            let page = pageAfter[lastID] ?? pageAfterEver[query]?[lastID] ?? 1
            return (page, generation)
        }
        source.load(query: query, page: page) { [self] result in
            if case .success(let response) = result {
                lock.withLock {
                    for row in response.rows {
                        if requestGeneration == generation, pageAfter[row.id] == nil {
                            pageAfter[row.id] = page + 1
                        }
                        if pageAfterEver[query, default: [:]][row.id] == nil {
                            pageAfterEver[query, default: [:]][row.id] = page + 1
                        }
                    }
                }
            }
            let mapped = result.map { response in
                SearchPage(
                    items: response.rows.map { SearchItem(id: $0.id, title: $0.title, likeCount: $0.revision) },
                    hasMore: response.hasMore)
            }
            // As the HTTP repository does: call back on the main queue.
            DispatchQueue.main.async { completion(mapped) }
        }
    }
}
