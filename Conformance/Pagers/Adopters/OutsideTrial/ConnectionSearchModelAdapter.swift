// From an outside trial (round seven): the adapter its author wrote, names changed only.

import Foundation
import PagerContracts

struct ConnectionSearchModelAdapter: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities {
        // Loads nothing by itself after a page; has no cursor-cycle check.
        PagerCapabilities(pagination: .cursors, triggers: [.refresh],
                          stopsOnNoProgress: false, detectsCursorCycles: false)
    }
    let model: ConnectionSearchModel

    init(source: PageSource) async {
        model = await ConnectionSearchModel(searchText: "A") { query, _, after in
            let response = try await source.load(query: query, cursor: after)
            return ConnectionPage(
                edges: response.rows.map { ConnectionEdge(cursor: $0.stringID, node: ConnectionRepository(id: $0.id, name: $0.title)) },
                pageInfo: ConnectionPageInfo(endCursor: response.nextCursor, hasNextPage: response.hasMore))
        }
    }
    func bottomReached() async { await model.loadNextPage() }
    func retry() async { await model.retry() }
    func changeQuery(to query: String) async { await model.search(query) }
    func refresh() async { await model.refresh() }
    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(visibleIDs: model.repositories.map(\.id), isLoading: model.isLoadingPage,
                          hasMore: model.pageInfo.hasNextPage && !model.isStalled,
                          showsError: model.errorMessage != nil, hasProtocolError: model.isStalled)
        }
    }
}
