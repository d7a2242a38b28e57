// Test target: the real controller at the async level, completion-handler loader
// (Docs/AsyncSettling.md, "Completion handlers").
import PagerContracts

import Foundation

/// The app's URLSession service, replaced by the kit's page source: the kit's page is
/// encoded as the backend's JSON body, so the controller decodes it as in production.
/// Departments are the kit's query names; member IDs are the rows' string IDs.
struct KitDirectoryService: DirectoryService {
    let source: PageSource

    func fetchMembers(
        department: String, page: Int,
        completion: @escaping @Sendable (Result<Data, any Error>) -> Void
    ) {
        source.load(query: department, page: page) { result in
            completion(result.flatMap { response in
                Result {
                    try JSONEncoder().encode(MemberBatch(
                        members: response.rows.map { MemberDTO(id: $0.stringID, fullName: $0.title) },
                        hasMore: response.hasMore))
                }
            })
        }
    }
}

struct TeamDirectoryAdapter: AsyncPagerAdapter {
    typealias ItemID = String

    // Completion handlers (P3 applies), pull to refresh, and no self-chained loads after a
    // page that added nothing.
    static let capabilities = PagerCapabilities(
        triggers: [.refresh], loader: .completionHandler, stopsOnNoProgress: false)

    let controller: TeamDirectoryController

    init(source: PageSource) async {
        controller = await TeamDirectoryController(
            department: "A", service: KitDirectoryService(source: source))
    }

    func bottomReached() async throws { try await controller.loadMore() }
    func retry() async { await controller.retry() }
    func refresh() async { await controller.refresh() }
    func changeQuery(to query: String) async { await controller.selectDepartment(query) }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: controller.rows.map(\.id),
                isLoading: controller.isLoading,
                hasMore: controller.phase != .complete,
                showsError: controller.errorBanner != nil)
        }
    }

    static func itemID(for row: PageRow) -> String { row.stringID }

    /// The controller decodes each answer on its processing queue before it hops to the main
    /// actor: an empty block on that serial queue is a barrier.
    func waitForPendingWork() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            TeamDirectoryController.processingQueue.async { done.resume() }
        }
    }
}
