import Dispatch
import Foundation

// A UIKit-era list controller (the UITableViewController's data side), written the
// way it was in 2016 and ported to Swift 6 with as few changes as possible.
//
// Written from the kit's docs alone by an outside trial (its second round), as a buggy pager:
// it recognises an answer by (filter text, page number), not by a generation. The fixed P4
// timeline passed it until the late answer of D, E, D came while the second visit's page 2
// loads (same name, same page). Only change from the trial: the three-pages-without-progress
// stop (P12), which the trial's controller also lacked, so that it carries one bug.

public struct LegacyFeedPost: Equatable, Sendable {
    public let id: Int
    public let title: String
    public init(id: Int, title: String) {
        self.id = id
        self.title = title
    }
}

public struct LegacyFeedPage: Sendable {
    public let posts: [LegacyFeedPost]
    public let hasMore: Bool
    public init(posts: [LegacyFeedPost], hasMore: Bool) {
        self.posts = posts
        self.hasMore = hasMore
    }
}

/// The networking layer: fetches on its own queue, calls back on the main queue.
public final class LegacyFeedService: Sendable {
    public typealias Transport = @Sendable (
        _ filter: String, _ page: Int, _ done: @escaping @Sendable (Result<LegacyFeedPage, any Error>) -> Void
    ) -> Void

    private let transport: Transport

    public init(transport: @escaping Transport) {
        self.transport = transport
    }

    public func fetchPosts(
        filter: String, page: Int,
        completion: @escaping @Sendable (Result<LegacyFeedPage, any Error>) -> Void
    ) {
        transport(filter, page) { result in
            DispatchQueue.main.async {
                completion(result)
            }
        }
    }
}

@MainActor
public protocol LegacyFeedControllerDelegate: AnyObject {
    func feedControllerDidChangeContent(_ controller: LegacyFeedController)
    func feedController(_ controller: LegacyFeedController, didFailWith error: any Error)
}

@MainActor
public final class LegacyFeedController {
    public weak var delegate: LegacyFeedControllerDelegate?

    public private(set) var posts: [LegacyFeedPost] = []
    public private(set) var isLoading = false
    public private(set) var hasMore = true
    public private(set) var lastError: (any Error)?
    public private(set) var filter: String

    private let service: LegacyFeedService
    private var nextPage = 1
    private var loadingPage: Int?
    private var postIDs = Set<Int>()
    private var replaceOnNextPage = false
    private var pagesWithoutNewPosts = 0

    public init(filter: String, service: LegacyFeedService) {
        self.filter = filter
        self.service = service
    }

    // MARK: View lifecycle / UI events

    public func viewDidLoad() {
        loadNextPageIfNeeded()
    }

    public func tableViewWillDisplayLastRow() {
        loadNextPageIfNeeded()
    }

    public func segmentedControlDidChange(to newFilter: String) {
        guard newFilter != filter else { return }
        filter = newFilter
        posts = []
        postIDs = []
        nextPage = 1
        hasMore = true
        lastError = nil
        loadingPage = nil
        isLoading = false
        pagesWithoutNewPosts = 0
        delegate?.feedControllerDidChangeContent(self)
        loadNextPageIfNeeded()
    }

    public func refreshControlValueChanged() {
        nextPage = 1
        hasMore = true
        lastError = nil
        loadingPage = nil
        isLoading = false
        pagesWithoutNewPosts = 0
        replaceOnNextPage = true
        loadNextPageIfNeeded()
    }

    public func retryButtonTapped() {
        loadNextPageIfNeeded()
    }

    // MARK: Loading

    private func loadNextPageIfNeeded() {
        guard !isLoading, hasMore else { return }
        let page = nextPage
        let requestedFilter = filter
        isLoading = true
        loadingPage = page
        lastError = nil
        service.fetchPosts(filter: requestedFilter, page: page) { [weak self] result in
            MainActor.assumeIsolated {
                self?.handle(result, filter: requestedFilter, page: page)
            }
        }
    }

    private func handle(_ result: Result<LegacyFeedPage, any Error>, filter requestedFilter: String, page: Int) {
        // Ignore answers for another filter or a page we are no longer waiting for.
        guard requestedFilter == filter, loadingPage == page else { return }
        loadingPage = nil
        isLoading = false
        switch result {
        case .success(let response):
            if replaceOnNextPage {
                replaceOnNextPage = false
                posts = []
                postIDs = []
            }
            let before = posts.count
            for post in response.posts where postIDs.insert(post.id).inserted {
                posts.append(post)
            }
            pagesWithoutNewPosts = posts.count == before ? pagesWithoutNewPosts + 1 : 0
            // Three pages in a row with nothing new: stop, as if the list ended.
            hasMore = response.hasMore && pagesWithoutNewPosts < 3
            nextPage = page + 1
            delegate?.feedControllerDidChangeContent(self)
        case .failure(let error):
            lastError = error
            delegate?.feedController(self, didFailWith: error)
        }
    }
}
