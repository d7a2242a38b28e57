import PagerContracts
import Foundation

/// Completion-handler controller; the service hops back with `DispatchQueue.main.async`
/// (Docs/AsyncSettling.md "Completion handlers").
struct PhotoGridControllerAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers, triggers: [.appear, .refresh], loader: .completionHandler,
        stopsOnNoProgress: false)

    let controller: PhotoGridController

    init(source: PageSource) async {
        let service = PGClosurePhotoService { query, page, done in
            source.load(query: query, page: page) { result in
                done(result.map { response in
                    PGPhotoPage(
                        photos: response.rows.map { PGPhoto(id: $0.id, url: $0.title) },
                        page: page, totalPages: response.hasMore ? page + 1 : page)
                })
            }
        }
        controller = await PhotoGridController(service: service, query: "A")
    }

    func appear() async { await controller.viewDidLoad() }
    func bottomReached() async {
        await MainActor.run {
            // The grid shows the last cell: the collection view asks for its index.
            controller.loadMoreIfNeeded(visibleIndex: max(controller.photos.count - 1, 0))
        }
    }
    func changeQuery(to query: String) async { await controller.updateQuery(query) }
    func refresh() async { await controller.refresh() }
    func retry() async { await controller.retry() }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: controller.photos.map(\.id), isLoading: controller.isLoading,
                hasMore: controller.hasMorePages, showsError: controller.lastError != nil)
        }
    }
}
