import Foundation

/// One row of search results as the backend returns it.
public struct CatalogSearchResult: Sendable, Hashable {
    public let id: Int
    public let title: String
    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

/// One page of an offset/limit search endpoint.
public struct CatalogSearchResponse: Sendable {
    public let items: [CatalogSearchResult]
    /// The server's own "there is more after this page" flag.
    public let hasMore: Bool
    public init(items: [CatalogSearchResult], hasMore: Bool) {
        self.items = items
        self.hasMore = hasMore
    }
}

/// A handle to an in-flight request (URLSessionTask-style).
public protocol CatalogSearchCancellable: AnyObject {
    func cancel()
}

public enum CatalogSearchAPIError: Error, Equatable {
    case cancelled
    case http(status: Int)
}

/// The app's networking seam: a completion-handler search endpoint.
/// The completion may be called on any thread, possibly synchronously (cached answers).
public protocol CatalogSearchAPI: AnyObject {
    func search(
        query: String, offset: Int, limit: Int,
        completion: @escaping (Result<CatalogSearchResponse, Error>) -> Void
    ) -> CatalogSearchCancellable
}

public func isCatalogSearchCancellation(_ error: Error) -> Bool {
    if error is CancellationError { return true }
    if let e = error as? CatalogSearchAPIError, e == .cancelled { return true }
    let ns = error as NSError
    return ns.domain == NSURLErrorDomain && ns.code == NSURLErrorCancelled
}
