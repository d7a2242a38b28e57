import Foundation

public struct LSCArticle: Equatable, Sendable {
    public let id: String
    public let headline: String
    public init(id: String, headline: String) { self.id = id; self.headline = headline }
}

public struct LSCResponse: Sendable {
    public let articles: [LSCArticle]
    public let hasNextPage: Bool
    public init(articles: [LSCArticle], hasNextPage: Bool) { self.articles = articles; self.hasNextPage = hasNextPage }
}

/// Old-school API client: completion handler, delivered on the main queue.
public protocol LSCArticleAPI: AnyObject {
    func loadArticles(query: String, page: Int,
                      completion: @escaping @MainActor @Sendable (Result<LSCResponse, Error>) -> Void)
}

@MainActor
public protocol LSCScrollControllerDelegate: AnyObject {
    func scrollControllerDidUpdate(_ controller: LegacyScrollController)
}

@MainActor
public final class LegacyScrollController {
    public private(set) var articles: [LSCArticle] = []
    public private(set) var searchTerm: String
    public private(set) var page = 0            // last page shown
    public private(set) var canLoadMore = true
    public private(set) var isFetching = false
    public private(set) var isRefreshing = false
    public private(set) var failure: Error?

    public weak var delegate: LSCScrollControllerDelegate?
    private let api: LSCArticleAPI
    /// Bumped by pull-to-refresh so that a page load overtaken by a refresh is ignored.
    private var refreshGeneration = 0
    private var failedPage: Int?
    /// The page we are waiting for; a completion that runs twice finds no match.
    private var inFlightPage: Int?

    public init(api: LSCArticleAPI, searchTerm: String = "") {
        self.api = api
        self.searchTerm = searchTerm
    }

    public func start() {
        guard articles.isEmpty, !isFetching else { return }
        fetch(page: 1)
    }

    /// Called from `scrollViewDidScroll` when the content offset reaches the bottom.
    public func didScrollToBottom() {
        guard !isFetching, canLoadMore, failure == nil else { return }
        fetch(page: page + 1)
    }

    public func searchTermChanged(to term: String) {
        guard term != searchTerm else { return }
        searchTerm = term
        articles = []
        page = 0
        canLoadMore = true
        failure = nil
        failedPage = nil
        isRefreshing = false
        fetch(page: 1)
    }

    public func pullToRefresh() {
        refreshGeneration += 1
        isRefreshing = true
        fetch(page: 1)
    }

    public func retry() {
        guard failure != nil, !isFetching, let failedPage else { return }
        fetch(page: failedPage)
    }

    private func fetch(page requested: Int) {
        isFetching = true
        failure = nil
        inFlightPage = requested
        let generation = refreshGeneration
        let replaces = isRefreshing || requested == 1
        api.loadArticles(query: searchTerm, page: requested) { [weak self] result in
            guard let self else { return }
            guard generation == self.refreshGeneration else { return } // overtaken by a refresh
            guard requested == self.inFlightPage else { return }       // duplicate / not ours
            self.apply(result, page: requested, replaces: replaces)
        }
        delegate?.scrollControllerDidUpdate(self)
    }

    private func apply(_ result: Result<LSCResponse, Error>, page requested: Int, replaces: Bool) {
        inFlightPage = nil
        isFetching = false
        isRefreshing = false
        switch result {
        case let .success(response):
            failedPage = nil
            var list = replaces ? [] : articles
            var ids = Set(list.map(\.id))
            for article in response.articles where ids.insert(article.id).inserted {
                list.append(article)
            }
            articles = list
            page = requested
            canLoadMore = response.hasNextPage && !response.articles.isEmpty
        case let .failure(error):
            failure = error
            failedPage = requested
        }
        delegate?.scrollControllerDidUpdate(self)
    }
}
