import Foundation

public struct PGPhoto: Equatable, Sendable {
    public let id: Int
    public let url: String
    public init(id: Int, url: String) { self.id = id; self.url = url }
}

public struct PGPhotoPage: Sendable {
    public let photos: [PGPhoto]
    public let page: Int
    public let totalPages: Int
    public init(photos: [PGPhoto], page: Int, totalPages: Int) {
        self.photos = photos; self.page = page; self.totalPages = totalPages
    }
}

/// Completion-handler service. Implementations deliver `completion` on the main queue
/// (`DispatchQueue.main.async`).
public protocol PGPhotoService: AnyObject {
    func fetchPhotos(query: String, page: Int,
                     completion: @escaping @MainActor @Sendable (Result<PGPhotoPage, Error>) -> Void)
}

@MainActor
public protocol PGPhotoGridView: AnyObject {
    func photosDidChange(_ photos: [PGPhoto])
    func loadingDidChange(_ isLoading: Bool, isRefreshing: Bool)
    func showError(_ error: Error?)
}

@MainActor
public final class PhotoGridController {
    public static let prefetchThreshold = 5

    public private(set) var photos: [PGPhoto] = [] { didSet { view?.photosDidChange(photos) } }
    public private(set) var query: String
    public private(set) var isLoading = false
    public private(set) var isRefreshing = false
    public private(set) var lastError: Error?
    /// Last page successfully shown (0 = nothing loaded yet).
    public private(set) var currentPage = 0
    public private(set) var hasMorePages = true

    public weak var view: PGPhotoGridView?
    private let service: PGPhotoService
    private var requestToken: UUID?
    private var pendingRequest: (page: Int, isRefresh: Bool)?

    public init(service: PGPhotoService, query: String = "") {
        self.service = service
        self.query = query
    }

    // MARK: - Inputs

    public func viewDidLoad() {
        guard photos.isEmpty, !isLoading else { return }
        load(page: 1, isRefresh: false)
    }

    public func loadMoreIfNeeded(visibleIndex: Int) {
        guard visibleIndex >= photos.count - Self.prefetchThreshold else { return }
        guard !isLoading, hasMorePages, lastError == nil else { return }
        load(page: currentPage + 1, isRefresh: false)
    }

    public func updateQuery(_ newQuery: String) {
        guard newQuery != query else { return }
        query = newQuery
        requestToken = nil // drops whatever is in flight
        photos = []
        currentPage = 0
        hasMorePages = true
        lastError = nil
        isRefreshing = false
        load(page: 1, isRefresh: false)
    }

    public func refresh() {
        isRefreshing = true
        load(page: 1, isRefresh: true)
    }

    public func retry() {
        guard lastError != nil, !isLoading, let pending = pendingRequest else { return }
        isRefreshing = pending.isRefresh
        load(page: pending.page, isRefresh: pending.isRefresh)
    }

    // MARK: - Loading

    private func load(page: Int, isRefresh: Bool) {
        let token = UUID()
        requestToken = token
        pendingRequest = (page, isRefresh)
        isLoading = true
        lastError = nil
        view?.showError(nil)
        view?.loadingDidChange(true, isRefreshing: isRefreshing)
        service.fetchPhotos(query: query, page: page) { [weak self] result in
            self?.handle(result, token: token, page: page, isRefresh: isRefresh)
        }
    }

    private func handle(_ result: Result<PGPhotoPage, Error>, token: UUID, page: Int, isRefresh: Bool) {
        guard token == requestToken else { return } // stale (old query / superseded by refresh)
        requestToken = nil
        isLoading = false
        isRefreshing = false
        defer { view?.loadingDidChange(false, isRefreshing: false) }
        switch result {
        case let .success(response):
            pendingRequest = nil
            var base = (page == 1) ? [] : photos
            var seen = Set(base.map(\.id))
            for photo in response.photos where !seen.contains(photo.id) {
                seen.insert(photo.id)
                base.append(photo)
            }
            photos = base
            currentPage = page
            hasMorePages = page < response.totalPages && !response.photos.isEmpty
        case let .failure(error):
            lastError = error
            view?.showError(error)
        }
    }
}

/// Production-style service: runs a background fetch and hops back with `DispatchQueue.main.async`.
public final class PGClosurePhotoService: PGPhotoService, @unchecked Sendable {
    public typealias Fetch = @Sendable (_ query: String, _ page: Int,
                                        _ done: @escaping @Sendable (Result<PGPhotoPage, Error>) -> Void) -> Void
    private let fetch: Fetch
    public init(fetch: @escaping Fetch) { self.fetch = fetch }

    public func fetchPhotos(query: String, page: Int,
                            completion: @escaping @MainActor @Sendable (Result<PGPhotoPage, Error>) -> Void) {
        fetch(query, page) { result in
            DispatchQueue.main.async { completion(result) }
        }
    }
}
