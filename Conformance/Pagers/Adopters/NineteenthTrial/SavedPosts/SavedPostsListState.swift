import Foundation

/// One saved post as the list shows it.
struct SavedPost: Hashable, Sendable {
    let id: Int
    var title: String
    var revision: Int
}

/// One page of `GET /me/saved?filter=…&page=n`.
struct SavedPostsPage: Sendable {
    let posts: [SavedPost]
    let hasMore: Bool
}

/// What a request is recognised by: the filter generation it was issued under and its page.
struct SavedPostsRequest: Hashable, Sendable, CustomStringConvertible {
    let generation: Int
    let page: Int
    var description: String { "gen \(generation) page \(page)" }
}

/// The footer cell under the last post.
enum SavedPostsFooter: Equatable, Sendable {
    case hidden     // more to load, nothing running
    case spinner    // a page is on its way
    case retry      // the last page failed; "Tap to retry"
    case end        // "You're all caught up"
}

/// A value snapshot in the spirit of `NSDiffableDataSourceSnapshot`: the controller hands it to
/// the data source as is, and the cells are configured from `postsByID`.
struct SavedPostsListSnapshot: Equatable, Sendable {
    var postIDs: [Int] = []
    var footer: SavedPostsFooter = .hidden
}

/// The saved-posts list as a state machine. The view controller owns one, feeds it scroll
/// events, filter changes and network completions, and applies `snapshot` after every call.
struct SavedPostsListState: Sendable {
    /// Pages in a row that bring nothing new before we stop asking for more (the server has
    /// been seen to say "more" forever while re-serving the same saved posts).
    static let noProgressLimit = 3

    private(set) var filter: String
    private(set) var postsByID: [Int: SavedPost] = [:]
    private(set) var hasMore = true
    private(set) var stalled = false
    private(set) var inFlight: SavedPostsRequest?
    private(set) var failedPage: Int?
    private(set) var snapshot = SavedPostsListSnapshot()

    private var generation = 0
    private var nextPage = 1
    private var pagesWithoutNewPosts = 0

    init(filter: String) {
        self.filter = filter
    }

    var isExhausted: Bool { !hasMore || stalled }

    // MARK: Triggers

    /// The collection view scrolled near its end (also the first load).
    mutating func scrolledToBottom() -> SavedPostsRequest? {
        guard inFlight == nil, failedPage == nil, !isExhausted else { return nil }
        return startRequest()
    }

    /// "Tap to retry" in the footer.
    mutating func retryTapped() -> SavedPostsRequest? {
        guard inFlight == nil, failedPage != nil else { return nil }
        failedPage = nil
        return startRequest()
    }

    /// The segmented control switched filters: a new generation, the list empties, and the next
    /// scroll event loads page 1.
    mutating func filterChanged(to newFilter: String) {
        guard newFilter != filter else { return }
        filter = newFilter
        generation += 1
        postsByID = [:]
        snapshot.postIDs = []
        hasMore = true
        stalled = false
        inFlight = nil
        failedPage = nil
        nextPage = 1
        pagesWithoutNewPosts = 0
        updateFooter()
    }

    // MARK: Completions

    /// A page arrived. Returns whether it was used (false: stale or already handled).
    @discardableResult
    mutating func pageArrived(_ page: SavedPostsPage, for request: SavedPostsRequest) -> Bool {
        guard request == inFlight else { return false }
        inFlight = nil
        nextPage = request.page + 1

        var newIDs: [Int] = []
        for post in page.posts where postsByID[post.id] == nil {
            postsByID[post.id] = post
            newIDs.append(post.id)
        }

        guard !newIDs.isEmpty else {
            // Nothing new to insert: leave the rows and the snapshot's items alone (applying an
            // identical snapshot still diffs and reconfigures every visible cell, which made the
            // list flicker), take the spinner down and count the page, so a server that keeps
            // re-serving saved posts cannot keep the footer spinning forever.
            pagesWithoutNewPosts += 1
            if pagesWithoutNewPosts >= Self.noProgressLimit { stalled = true }
            updateFooter()
            return true
        }

        pagesWithoutNewPosts = 0
        snapshot.postIDs.append(contentsOf: newIDs)
        hasMore = page.hasMore
        updateFooter()
        return true
    }

    /// A request failed. A cancellation (the system tore the request down) is not the user's
    /// problem: no retry footer, the next scroll event asks for the same page again.
    @discardableResult
    mutating func requestFailed(_ request: SavedPostsRequest, cancelled: Bool) -> Bool {
        guard request == inFlight else { return false }
        inFlight = nil
        if !cancelled { failedPage = request.page }
        updateFooter()
        return true
    }

    // MARK: Private

    private mutating func startRequest() -> SavedPostsRequest {
        let request = SavedPostsRequest(generation: generation, page: nextPage)
        inFlight = request
        updateFooter()
        return request
    }

    private mutating func updateFooter() {
        if inFlight != nil {
            snapshot.footer = .spinner
        } else if failedPage != nil {
            snapshot.footer = .retry
        } else if isExhausted {
            snapshot.footer = .end
        } else {
            snapshot.footer = .hidden
        }
    }
}
