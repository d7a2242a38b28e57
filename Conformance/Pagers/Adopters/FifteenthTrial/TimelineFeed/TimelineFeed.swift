import Foundation

/// A post in the home timeline.
struct Post: Identifiable, Hashable, Sendable {
    let id: Int
    let title: String
}

/// One page as the timeline API returns it (`GET /timeline?filter=…&page=n`).
struct TimelinePage: Sendable {
    let posts: [Post]
    let hasMore: Bool
}

/// Why a page did not arrive.
enum TimelineLoadError: Error, Sendable, Equatable {
    /// The request was cancelled (the screen went away, the system cancelled the task).
    case cancelled
    /// Timeout, offline, 5xx: worth a retry.
    case failed(String)
}

/// The home timeline as a pure state machine.
///
/// The store owns the networking: every mutating call returns the request to send (if any), and
/// the store hands the answer back with that same request value, which doubles as the ticket
/// (generation + page). No async code in here, so the reducer tests run synchronously.
struct TimelineFeed: Sendable {
    struct Request: Hashable, Sendable {
        let generation: Int
        let filter: String
        let page: Int
    }

    /// After this many pages in a row that show nothing new while the server still says "more",
    /// automatic loading stops (a backend stuck on the same page would otherwise be paged forever).
    static let noProgressLimit = 3

    private(set) var filter: String
    private(set) var posts: [Post] = []
    private(set) var hasMore = true
    private(set) var errorMessage: String?
    /// Loading stopped because pages kept coming back with nothing new.
    private(set) var isStalled = false
    private(set) var inFlight: Request?

    private var generation = 0
    private var nextPage = 1
    private var seenIDs: Set<Int> = []
    private var pagesWithoutNewPosts = 0

    init(filter: String) {
        self.filter = filter
    }

    var isLoading: Bool { inFlight != nil }

    // MARK: Triggers

    /// The bottom of the list became visible (also the very first load). While an error is shown
    /// this re-requests the page that failed: the position never moved.
    mutating func loadNextPage() -> Request? {
        guard inFlight == nil, hasMore, !isStalled else { return nil }
        errorMessage = nil
        let request = Request(generation: generation, filter: filter, page: nextPage)
        inFlight = request
        return request
    }

    /// The "Retry" button of the error footer.
    mutating func retry() -> Request? {
        guard errorMessage != nil else { return nil }
        return loadNextPage()
    }

    /// A filter chip was tapped: a new list, loaded at once.
    mutating func setFilter(_ newFilter: String) -> Request? {
        guard newFilter != filter else { return nil }
        filter = newFilter
        startNewGeneration()
        posts = []
        seenIDs = []
        return loadNextPage()
    }

    /// Pull to refresh: a new generation from page 1. The old posts stay on screen until the new
    /// first page replaces them.
    mutating func refresh() -> Request? {
        startNewGeneration()
        return loadNextPage()
    }

    // MARK: Answers

    mutating func receive(_ page: TimelinePage, for request: Request) {
        guard request == inFlight else { return }  // stale, superseded or delivered twice
        inFlight = nil

        if request.page == 1 {  // a first page replaces whatever is shown (refresh keeps it until now)
            posts = []
            seenIDs = []
        }
        let newPosts = page.posts.filter { seenIDs.insert($0.id).inserted }
        posts += newPosts
        nextPage = request.page + 1
        hasMore = page.hasMore

        guard page.hasMore else { return }
        switch newPosts.count {
        case 0:
            pagesWithoutNewPosts += 1
            if pagesWithoutNewPosts >= Self.noProgressLimit { isStalled = true }
        case page.posts.count:
            pagesWithoutNewPosts = 0  // a page of new posts: the feed is moving again
        default:
            break  // some posts already shown: the offsets drifted (new posts arrived at the top)
        }
    }

    mutating func receiveFailure(_ error: TimelineLoadError, for request: Request) {
        guard request == inFlight else { return }  // an old request's failure is not this list's
        inFlight = nil
        switch error {
        case .cancelled:
            break  // nothing to tell the user; the next bottom trigger asks for this page again
        case .failed(let reason):
            errorMessage = "Couldn't load more posts (\(reason))."
        }
    }

    // MARK: Private

    private mutating func startNewGeneration() {
        generation += 1
        inFlight = nil  // whatever is in flight now answers a generation nobody shows
        nextPage = 1
        hasMore = true
        isStalled = false
        pagesWithoutNewPosts = 0
        errorMessage = nil
    }
}
