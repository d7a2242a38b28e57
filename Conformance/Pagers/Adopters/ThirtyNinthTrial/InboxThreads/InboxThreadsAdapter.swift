import PagerContracts
import Foundation

/// The inbox's service, answered by the kit's page source.
struct KitThreadsService: ThreadsService {
    let source: PageSource
    /// Report the kit's cancellation as URLSession does, as `URLError(.cancelled)`.
    var cancellationAsURLError = false

    func threads(folder: String, page: Int) async throws -> ThreadsPage {
        let response: PageResponse
        do {
            response = try await source.load(query: folder, page: page)
        } catch is CancellationError where cancellationAsURLError {
            throw URLError(.cancelled)
        }
        return ThreadsPage(
            threads: response.rows.map {
                MessageThread(id: $0.stringID, subject: $0.title, preview: "", unreadCount: 0)
            },
            hasMore: response.hasMore)
    }
}

/// Adapts `InboxThreadsViewModel` to the kit's async pager contracts.
struct InboxThreadsAdapter: AsyncPagerAdapter {
    typealias ItemID = String

    static var capabilities: PagerCapabilities {
        PagerCapabilities(
            triggers: [.refresh, .appear],
            // The view model never loads a page by itself after a page, and it has no
            // no-progress count: it waits for the next bottom trigger.
            stopsOnNoProgress: false)
    }

    static func itemID(for row: PageRow) -> String { row.stringID }

    /// The kit's query names mapped onto folders ("A" is the folder the screen opens on).
    static func folder(for query: String) -> String {
        switch query {
        case "A": "Inbox"
        case "B": "Archive"
        case "C": "Sent"
        case "D": "Drafts"
        case "E": "Spam"
        case "F": "Trash"
        default: "Folder \(query)"
        }
    }

    let model: InboxThreadsViewModel

    init(source: PageSource) async {
        await self.init(source: source, cancellationAsURLError: false)
    }

    init(source: PageSource, cancellationAsURLError: Bool) async {
        model = await InboxThreadsViewModel(
            service: KitThreadsService(source: source, cancellationAsURLError: cancellationAsURLError),
            folder: Self.folder(for: "A"))
    }

    func appear() async { await model.onAppear() }
    func bottomReached() async { await model.loadNextPage() }
    func retry() async { await model.retry() }
    func refresh() async { await model.refresh() }
    func changeQuery(to query: String) async { await model.select(folder: Self.folder(for: query)) }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.threads.map(\.id),
                isLoading: model.isLoading,
                hasMore: model.hasMore,
                showsError: model.errorMessage != nil)
        }
    }
}
