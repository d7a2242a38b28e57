import Foundation

@MainActor
protocol FeedControllerDelegate: AnyObject {
    /// Posts, footer or refresh state changed: reload the collection view's snapshot.
    func feedControllerDidChange(_ controller: FeedController)
}

/// The feed behind the home screen's collection view, in the style the app's UIKit screens
/// have always used: the view controller forwards its events, the controller calls the
/// service with a completion handler and tells its delegate when something changed.
///
/// Every request carries a token; only the response or failure for the request on its way may
/// change anything. A filter change or a refresh simply forgets the old token, so whatever the
/// old request answers later (data, an error, a second callback) is dropped.
@MainActor
final class FeedController {
    enum Footer: Equatable {
        case hidden
        case spinner
        case retry(message: String)
        case endOfFeed
    }

    private struct PendingRequest {
        let token: UUID
        let page: Int
        let replacesPosts: Bool
    }

    weak var delegate: (any FeedControllerDelegate)?

    private(set) var posts: [FeedPost] = []
    private(set) var filter: FeedFilter
    private(set) var footer: Footer = .hidden
    private(set) var isRefreshing = false
    private(set) var hasMorePages = true

    var isLoading: Bool { pending != nil }

    var errorMessage: String? {
        guard case .retry(let message) = footer else { return nil }
        return message
    }

    private let service: FeedService
    private var nextPage = 1
    private var knownIDs: Set<UUID> = []
    private var pending: PendingRequest?
    /// After a pull to refresh, the posts on screen belong to the old generation: the next
    /// page 1 that arrives replaces them (also when the refresh failed and is tried again).
    private var postsAreStale = false

    init(filter: FeedFilter, service: FeedService) {
        self.filter = filter
        self.service = service
    }

    // MARK: - Events from the view controller

    /// `viewDidLoad`: the first page, unless something is already shown or on its way.
    func start() {
        guard posts.isEmpty, pending == nil else { return }
        loadNextPage()
    }

    /// `collectionView(_:willDisplay:forItemAt:)` for the last cell. While the error footer
    /// shows, this asks for the failed page again (the footer scrolled back into view).
    func loadNextPage() {
        guard pending == nil, hasMorePages else { return }
        request(page: nextPage, replacesPosts: postsAreStale)
    }

    /// The footer's "Try again" button.
    func retry() {
        loadNextPage()
    }

    /// `UIRefreshControl` fired: page 1 again. The posts stay until it arrives.
    func refresh() {
        pending = nil
        nextPage = 1
        hasMorePages = true
        postsAreStale = true
        isRefreshing = true
        request(page: 1, replacesPosts: true)
    }

    /// A topic chip was tapped: a new, empty list that loads page 1 right away.
    func setFilter(_ newFilter: FeedFilter) {
        guard newFilter != filter else { return }
        filter = newFilter
        pending = nil
        posts = []
        knownIDs = []
        nextPage = 1
        hasMorePages = true
        postsAreStale = false
        isRefreshing = false
        request(page: 1, replacesPosts: false)
    }

    // MARK: - Requests

    private func request(page: Int, replacesPosts: Bool) {
        let token = UUID()
        pending = PendingRequest(token: token, page: page, replacesPosts: replacesPosts)
        footer = replacesPosts ? .hidden : .spinner  // a refresh shows the refresh control instead
        delegate?.feedControllerDidChange(self)
        service.fetchPosts(filter: filter, page: page) { [weak self] result in
            self?.handle(result, token: token)
        }
    }

    private func handle(_ result: Result<Trial22FeedPage, any Error>, token: UUID) {
        // A response to a request made before the last filter change or refresh, or a second
        // callback for a request already handled, finds another token (or none): drop it.
        guard let answered = pending, answered.token == token else { return }
        pending = nil
        isRefreshing = false

        switch result {
        case .success(let page):
            if answered.replacesPosts {
                posts = []
                knownIDs = []
                postsAreStale = false
            }
            for post in page.posts where knownIDs.insert(post.id).inserted {
                posts.append(post)
            }
            nextPage = answered.page + 1
            hasMorePages = page.hasMore
            footer = page.hasMore ? .hidden : .endOfFeed
        case .failure(let error):
            if error is CancellationError {
                footer = .hidden  // the system gave up on it; scrolling asks for the page again
            } else {
                footer = .retry(message: "Couldn't load the feed.")
            }
        }
        delegate?.feedControllerDidChange(self)
    }
}
