import Foundation
import Observation

// From an outside trial (round four), as its author wrote it, renamed only: a catalog with a
// per-category page cache, which its author meant as correct. Its bug: going back to a
// category resumes the earlier visit (its next page and its end of list), where a query change
// must start a new list (P4).
// Switching back to a category shows its cached rows at once and continues from its next page.

struct CachedCatalogProduct: Identifiable, Hashable, Sendable {
    let id: Int
    let name: String
}

struct CachedCatalogPage: Sendable {
    let products: [CachedCatalogProduct]
    let hasMore: Bool
}

protocol CachedCatalogService: Sendable {
    func products(category: String, page: Int) async throws -> CachedCatalogPage
}

@Observable @MainActor
final class CachedCatalogModel {
    struct CategoryCache {
        var products: [CachedCatalogProduct] = []
        var ids: Set<Int> = []
        var nextPage = 1
        var hasMore = true
        var emptyPagesInARow = 0
    }

    private(set) var category: String
    private(set) var isLoading = false
    private(set) var showsError = false
    private var cache: [String: CategoryCache] = [:]

    private let service: any CachedCatalogService
    private let emptyPageLimit = 3
    private var activeToken: UUID?
    private var loadTask: Task<Void, Never>?

    init(category: String, service: any CachedCatalogService) {
        self.category = category
        self.service = service
    }

    var products: [CachedCatalogProduct] { cache[category]?.products ?? [] }
    var hasMore: Bool {
        let entry = cache[category] ?? CategoryCache()
        return entry.hasMore && entry.emptyPagesInARow < emptyPageLimit
    }

    /// Segmented control changed: show what we have for that category; the list's
    /// bottom row (or the empty state's onAppear) asks for more.
    func selectCategory(_ newCategory: String) {
        guard newCategory != category else { return }
        cancelLoad()
        showsError = false
        category = newCategory
    }

    func loadMore() async {
        guard activeToken == nil, hasMore else { return }
        let entry = cache[category] ?? CategoryCache()
        await load(page: entry.nextPage, into: category)
    }

    /// Pull to refresh: drop this category's cache and start again from page 1.
    func refresh() async {
        cancelLoad()
        showsError = false
        cache[category] = CategoryCache()
        await load(page: 1, into: category)
    }

    private func cancelLoad() {
        loadTask?.cancel()
        loadTask = nil
        activeToken = nil
        isLoading = false
    }

    private func load(page: Int, into category: String) async {
        let token = UUID()
        activeToken = token
        isLoading = true
        showsError = false
        let service = service
        let task = Task { [weak self] in
            do {
                let result = try await service.products(category: category, page: page)
                guard let self, self.activeToken == token else { return }
                self.activeToken = nil
                self.isLoading = false
                self.store(result, page: page, for: category)
            } catch {
                guard let self, self.activeToken == token else { return }
                self.activeToken = nil
                self.isLoading = false
                self.showsError = !(error is CancellationError)
            }
        }
        loadTask = task
        await task.value
    }

    private func store(_ result: CachedCatalogPage, page: Int, for category: String) {
        var entry = cache[category] ?? CategoryCache()
        var added = 0
        for product in result.products where entry.ids.insert(product.id).inserted {
            entry.products.append(product)
            added += 1
        }
        entry.nextPage = page + 1
        entry.hasMore = result.hasMore
        entry.emptyPagesInARow = (result.hasMore && added == 0) ? entry.emptyPagesInARow + 1 : 0
        cache[category] = entry
    }
}
