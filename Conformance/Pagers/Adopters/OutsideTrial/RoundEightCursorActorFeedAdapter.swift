// From an outside trial (round eight): the adapter its author wrote, names changed only.

import Foundation
import PagerContracts

// MARK: - C. Actor cursor pager + mirroring view model

struct RoundEightCursorFeedAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .cursors, triggers: [.refresh], stopsOnNoProgress: false,
        detectsCursorCycles: true)

    let viewModel: RoundEightCursorFeedViewModel

    init(source: PageSource) async {
        viewModel = await RoundEightCursorFeedViewModel(query: "A") { query, cursor in
            let response = try await source.load(query: query, cursor: cursor)
            return RoundEightCursorPage(
                messages: response.rows.map { RoundEightMessage(id: $0.id, text: $0.title) },
                nextCursor: response.hasMore ? response.nextCursor : nil)
        }
    }

    func bottomReached() async { await viewModel.onScrolledToBottom() }
    func retry() async { await viewModel.retry() }
    func changeQuery(to query: String) async { await viewModel.search(query) }
    func refresh() async { await viewModel.pullToRefresh() }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: viewModel.messages.map(\.id), isLoading: viewModel.isLoading,
                hasMore: viewModel.hasMore, showsError: viewModel.showsError,
                hasProtocolError: viewModel.isStalled)
        }
    }
}
