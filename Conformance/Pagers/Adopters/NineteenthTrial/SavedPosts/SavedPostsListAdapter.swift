import PagerContracts

/// Drives the list state the controller owns, as a state machine (model level).
struct SavedPostsListAdapter: PagerModelAdapter {
    static var capabilities: PagerCapabilities {
        PagerCapabilities(noProgressLimit: SavedPostsListState.noProgressLimit)
    }

    var state = SavedPostsListState(filter: "A")

    mutating func bottomReached() -> PageRequest<SavedPostsRequest>? {
        state.scrolledToBottom().map { PageRequest($0, page: $0.page) }
    }

    mutating func retry() -> PageRequest<SavedPostsRequest>? {
        state.retryTapped().map { PageRequest($0, page: $0.page) }
    }

    mutating func changeQuery(to query: String) -> PageRequest<SavedPostsRequest>? {
        state.filterChanged(to: query)
        return nil
    }

    mutating func deliver(_ response: PageResponse, for ticket: SavedPostsRequest) -> PageRequest<SavedPostsRequest>? {
        let posts = response.rows.map { SavedPost(id: $0.id, title: $0.title, revision: $0.revision) }
        state.pageArrived(SavedPostsPage(posts: posts, hasMore: response.hasMore), for: ticket)
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: SavedPostsRequest) -> PageRequest<SavedPostsRequest>? {
        state.requestFailed(ticket, cancelled: failure.isCancellation)
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: state.snapshot.postIDs,
            isLoading: state.snapshot.footer == .spinner,
            hasMore: state.snapshot.footer != .end,
            showsError: state.snapshot.footer == .retry)
    }
}
