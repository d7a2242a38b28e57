import Foundation
import PagerContracts
import Foundation

/// Serves `InboxPager`'s page-numbered API from the kit's page source. The kit's query name is
/// the filter's search text.
private struct ConformanceInboxService: InboxService {
    let source: PageSource

    func messages(filter: InboxFilter, page: Int) async throws -> (rows: [MailboxMessage], hasMore: Bool) {
        let response = try await source.load(query: filter.searchText, page: page)
        let rows = response.rows.map { MailboxMessage(id: $0.uuid, subject: $0.title, isUnread: true) }
        return (rows: rows, hasMore: response.hasMore)
    }
}

/// Runs the real `InboxPager` actor through the kit's P contracts at the async level.
struct InboxPagerAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .pageNumbers,
        triggers: [.refresh],
        loader: .asyncAwait,
        changesQuery: true,
        stopsOnNoProgress: false)   // the inbox never chains loads; it waits for the next scroll

    /// `MailboxMessage.id` is a `UUID`.
    static func itemID(for row: PageRow) -> UUID { row.uuid }

    let pager: InboxPager

    init(source: PageSource) async {
        // The kit's timelines start on query "A".
        pager = InboxPager(
            service: ConformanceInboxService(source: source),
            filter: InboxFilter(searchText: "A"))
    }

    func bottomReached() async { await pager.loadNextPage() }
    func changeQuery(to query: String) async { await pager.reload(filter: InboxFilter(searchText: query)) }
    func retry() async { await pager.retry() }
    func refresh() async { await pager.reload(filter: pager.filter) }

    func snapshot() async -> PagerSnapshot<UUID> {
        let state = await pager.snapshot
        return PagerSnapshot(
            visibleIDs: state.messages.map(\.id),
            isLoading: state.isLoading,
            hasMore: state.hasMore,
            showsError: state.errorMessage != nil)
    }
}

