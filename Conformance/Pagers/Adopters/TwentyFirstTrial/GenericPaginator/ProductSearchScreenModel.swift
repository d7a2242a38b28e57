import Foundation

struct CatalogProduct: Identifiable, Hashable, Sendable {
    let id: Int
    let title: String
}

/// The product search screen's model, built on the shared paginator.
final class ProductSearchScreenModel: Sendable {
    /// `GET /products?filter=…&after=<wireCursor>`; the cursor is already percent-encoded.
    typealias ProductFetcher = @Sendable (_ filter: String, _ wireCursor: String?) async throws -> PaginatorPage<CatalogProduct>

    let paginator: Paginator<CatalogProduct>
    private let fetchProducts: ProductFetcher

    init(filter: String, fetchProducts: @escaping ProductFetcher) {
        self.fetchProducts = fetchProducts
        paginator = Paginator { cursor in try await fetchProducts(filter, cursor) }
    }

    func bottomReached() async { await paginator.loadMore() }
    func retryTapped() async { await paginator.retry() }

    func filterChanged(to filter: String) async {
        let fetchProducts = self.fetchProducts
        await paginator.replaceFetch { cursor in try await fetchProducts(filter, cursor) }
    }

    func currentState() async -> PaginatorState<CatalogProduct> { await paginator.state }
}
