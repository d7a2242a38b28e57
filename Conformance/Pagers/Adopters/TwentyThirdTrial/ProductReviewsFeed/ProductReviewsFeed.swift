import Foundation
import Observation

/// One customer review on a product page.
struct ProductReviewsFeedReview: Identifiable, Sendable {
    let id: UUID
    var headline: String
}

/// One page of reviews as the reviews API returns it.
struct ProductReviewsFeedPage: Sendable {
    var reviews: [ProductReviewsFeedReview]
    var isLastPage: Bool
}

/// The completion-handler API client (a URLSession-based service layer calls back on the main
/// actor).
struct ProductReviewsFeedService: Sendable {
    typealias Completion = @MainActor @Sendable (Result<ProductReviewsFeedPage, any Error>) -> Void

    var fetchReviews: @MainActor @Sendable (_ filter: String, _ page: Int, _ completion: @escaping Completion) -> Void
}

/// Identifies one request: the filter generation it belongs to, its page, and a serial number
/// that is never reused (a retried page gets a new one).
struct ProductReviewsFeedRequest: Equatable, Sendable {
    let serial: Int
    let generation: Int
    let page: Int
}

/// The reviews section of a product page: a star filter ("All", "5★", "Critical", …) above an
/// endlessly scrolling list. Changing the filter empties the list; the list's bottom sentinel,
/// visible on an empty list, then asks for page 1.
@MainActor
@Observable
final class ProductReviewsFeed {
    enum Footer: Equatable {
        case idle
        case loading
        case failed(String)
        case endOfList
        /// Pages kept coming back with nothing new: stop asking.
        case stalled
    }

    private(set) var filter: String
    private(set) var reviews: [ProductReviewsFeedReview] = []
    private(set) var footer: Footer = .idle

    private let service: ProductReviewsFeedService
    private let noProgressLimit: Int

    @ObservationIgnored private var filterGeneration = 0
    @ObservationIgnored private var nextPage = 1
    @ObservationIgnored private var lastSerial = 0
    @ObservationIgnored private var pendingRequest: ProductReviewsFeedRequest?
    @ObservationIgnored private var pagesWithoutNewReviews = 0

    init(filter: String, noProgressLimit: Int = 3, service: ProductReviewsFeedService) {
        self.filter = filter
        self.noProgressLimit = noProgressLimit
        self.service = service
    }

    // MARK: - What the view reads

    var isLoading: Bool { footer == .loading }

    var hasMore: Bool {
        switch footer {
        case .endOfList, .stalled: return false
        case .idle, .loading, .failed: return true
        }
    }

    var errorMessage: String? {
        if case .failed(let message) = footer { return message }
        return nil
    }

    var reviewCountText: String {
        hasMore ? "\(reviews.count)+ reviews" : "\(reviews.count) reviews"
    }

    // MARK: - Intents

    func selectFilter(_ newFilter: String) {
        guard newFilter != filter else { return }
        filter = newFilter
        filterGeneration += 1
        pendingRequest = nil  // whatever is still on its way belongs to the old filter
        reviews = []
        nextPage = 1
        pagesWithoutNewReviews = 0
        footer = .idle
    }

    /// Called by the bottom sentinel's `onAppear`. While the error footer shows, scrolling to the
    /// bottom asks for the failed page again, as the retry button does.
    func loadMore() {
        guard pendingRequest == nil else { return }
        switch footer {
        case .loading, .endOfList, .stalled:
            return
        case .idle, .failed:
            break
        }
        lastSerial += 1
        let request = ProductReviewsFeedRequest(serial: lastSerial, generation: filterGeneration, page: nextPage)
        pendingRequest = request
        footer = .loading
        service.fetchReviews(filter, request.page) { [weak self] result in
            self?.handle(result, for: request)
        }
    }

    func retry() {
        loadMore()
    }

    // MARK: - Responses

    private func handle(_ result: Result<ProductReviewsFeedPage, any Error>, for request: ProductReviewsFeedRequest) {
        // A late answer for an earlier filter, or a completion that runs a second time (the
        // client's timeout timer firing after the answer), is not the one we wait for.
        guard request == pendingRequest, request.generation == filterGeneration else { return }
        pendingRequest = nil
        switch result {
        case .success(let page):
            append(page)
        case .failure(let error) where error is CancellationError:
            footer = .idle  // cancelled by the system: no error, the sentinel asks again
        case .failure:
            footer = .failed("Couldn't load reviews. Tap to try again.")
        }
    }

    private func append(_ page: ProductReviewsFeedPage) {
        // The API shifts its pages when someone posts a review while the user scrolls, so a
        // review can come back on the next page: skip the ones already on screen.
        let onScreen = Set(reviews.map(\.id))
        let newReviews = page.reviews.filter { !onScreen.contains($0.id) }
        reviews.append(contentsOf: newReviews)
        nextPage += 1
        pagesWithoutNewReviews = newReviews.isEmpty ? pagesWithoutNewReviews + 1 : 0
        if page.isLastPage {
            footer = .endOfList
        } else if pagesWithoutNewReviews >= noProgressLimit {
            footer = .stalled
        } else {
            footer = .idle
        }
    }
}
