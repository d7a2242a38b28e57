import Foundation

/// The networking layer as the app has it: completion handlers, called on a URLSession queue.
protocol SavedPostsService: Sendable {
    func fetchSavedPosts(
        filter: String, page: Int,
        completion: @escaping @Sendable (Result<SavedPostsPage, any Error>) -> Void)
}

/// The screen's controller (a `UICollectionViewController` subclass in the app; the UIKit parts
/// are left out here). It owns the list state and renders its snapshot after every event.
@MainActor
final class SavedPostsController {
    private let service: any SavedPostsService
    private let render: @MainActor (SavedPostsListSnapshot) -> Void
    private(set) var state: SavedPostsListState

    init(service: any SavedPostsService, filter: String,
         render: @escaping @MainActor (SavedPostsListSnapshot) -> Void) {
        self.service = service
        self.render = render
        self.state = SavedPostsListState(filter: filter)
    }

    func viewDidLoad() {
        render(state.snapshot)
        scrollViewDidReachBottom()
    }

    func scrollViewDidReachBottom() {
        if let request = state.scrolledToBottom() { send(request) }
        render(state.snapshot)
    }

    func retryButtonTapped() {
        if let request = state.retryTapped() { send(request) }
        render(state.snapshot)
    }

    func segmentedControlChanged(to filter: String) {
        state.filterChanged(to: filter)
        render(state.snapshot)
        scrollViewDidReachBottom()
    }

    private func send(_ request: SavedPostsRequest) {
        service.fetchSavedPosts(filter: state.filter, page: request.page) { [weak self] result in
            DispatchQueue.main.async {
                MainActor.assumeIsolated { self?.handle(result, for: request) }
            }
        }
    }

    private func handle(_ result: Result<SavedPostsPage, any Error>, for request: SavedPostsRequest) {
        switch result {
        case .success(let page):
            guard state.pageArrived(page, for: request) else { return }
        case .failure(let error):
            let cancelled = (error as? URLError)?.code == .cancelled || error is CancellationError
            guard state.requestFailed(request, cancelled: cancelled) else { return }
        }
        render(state.snapshot)
    }
}
