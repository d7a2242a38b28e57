import Dispatch
import Foundation

// From an outside trial (round four), as its author wrote it, renamed only. BUGGY on purpose.
// UIKit-style controller with a completion-handler service that delivers on DispatchQueue.main.
// The single bug: "is there another page?" is inferred from a full page
// (`posts.count == perPage`) instead of the server's `has_more` flag.

struct HashtagPost: Hashable, Sendable {
    let id: Int
    let text: String
}

struct HashtagTimelineResponse: Sendable {
    let posts: [HashtagPost]
    let hasMoreFlag: Bool  // decoded from "has_more"; unused by the controller (the bug)
}

protocol HashtagTimelineService: Sendable {
    /// Calls `completion` on the session's delegate queue (not the main queue).
    func fetchTimeline(tag: String, page: Int, perPage: Int,
                       completion: @escaping @Sendable (Result<HashtagTimelineResponse, Error>) -> Void)
}

@MainActor
final class HashtagTimelineController {
    private(set) var posts: [HashtagPost] = []
    private(set) var isLoading = false
    private(set) var showsErrorFooter = false
    private(set) var reachedEnd = false
    private(set) var tag: String
    var onChange: (() -> Void)?

    private let service: any HashtagTimelineService
    private let perPage = 20
    private var page = 1
    private var postIDs: Set<Int> = []
    private var currentRequest: UUID?

    init(tag: String, service: any HashtagTimelineService) {
        self.tag = tag
        self.service = service
    }

    /// scrollViewDidScroll near the bottom; also the footer's retry button.
    func loadNextPageIfNeeded() {
        guard currentRequest == nil, !reachedEnd else { return }
        let requestID = UUID()
        currentRequest = requestID
        isLoading = true
        showsErrorFooter = false
        let requestedPage = page
        service.fetchTimeline(tag: tag, page: requestedPage, perPage: perPage) { [weak self] result in
            DispatchQueue.main.async {
                self?.handle(result, requestID: requestID, page: requestedPage)
            }
        }
        onChange?()
    }

    /// Search bar: a new hashtag.
    func show(tag newTag: String) {
        guard newTag != tag else { return }
        tag = newTag
        currentRequest = nil
        posts = []
        postIDs = []
        page = 1
        reachedEnd = false
        isLoading = false
        showsErrorFooter = false
        onChange?()
    }

    private func handle(_ result: Result<HashtagTimelineResponse, Error>, requestID: UUID, page requestedPage: Int) {
        guard currentRequest == requestID else { return }  // stale or duplicate callback
        currentRequest = nil
        isLoading = false
        switch result {
        case .success(let response):
            for post in response.posts where postIDs.insert(post.id).inserted {
                posts.append(post)
            }
            page = requestedPage + 1
            reachedEnd = response.posts.count < perPage  // BUG: should be !response.hasMoreFlag
        case .failure(let error):
            showsErrorFooter = !(error is CancellationError)
        }
        onChange?()
    }
}
