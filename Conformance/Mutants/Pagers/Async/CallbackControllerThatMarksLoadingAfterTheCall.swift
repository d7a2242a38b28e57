import PagerContracts

/// Mutant. Bug: its loading layer answers from an in-memory cache synchronously (declared as
/// `.completionHandlerMayCallBackSynchronously`), but the controller records its in-flight token
/// *after* calling the loader, assuming the completion always runs later. A cached page runs
/// the completion inside the call, finds no matching token and is dropped; the token set
/// afterwards then blocks every later load. Correct under every other delivery.
///
/// The controller is ``CallbackFeedController`` with
/// ``CallbackFeedControllerDefect/marksLoadingAfterTheCall``; see the `// Mutant:` branch in
/// `CallbackFeedController.swift`.
struct CallbackControllerThatMarksLoadingAfterTheCallAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(loader: .completionHandlerMayCallBackSynchronously)

    let controller: CallbackFeedController

    init(source: PageSource) async {
        controller = CallbackFeedController(
            load: { query, page, completion in
                source.load(query: query, page: page, completion: completion)
            }, defect: .marksLoadingAfterTheCall)
    }

    func bottomReached() async { controller.loadMore() }
    func changeQuery(to query: String) async { controller.setQuery(query) }

    func snapshot() async -> PagerSnapshot<Int> {
        let state = controller.state
        return PagerSnapshot(
            visibleIDs: state.ids, isLoading: state.loading, hasMore: state.hasMore,
            showsError: state.failed)
    }
}
