// From an outside trial (round eight): the adapter its author wrote, names changed only (its
// final version: the offset table is filled from answered pages and never moves an entry back).

import Foundation
import PagerContracts

// MARK: - B. Offset/limit list with completion handlers

/// Test double of the contacts service on top of the kit's page source. Maps offsets to the
/// kit's page numbers with a table per visit (query change or refresh), as Docs/Pagers.md asks.
final class RoundEightKitContactsService: RoundEightContactsService, @unchecked Sendable {
    let source: PageSource
    private let lock = NSLock()
    private var visit = 0
    private var pageAtOffset: [Int: [Int: Int]] = [:]

    init(source: PageSource) { self.source = source }

    func beginVisit() {
        lock.lock()
        visit += 1
        lock.unlock()
    }

    func fetch(
        query: String, offset: Int, limit: Int,
        completion: @escaping @Sendable (Result<RoundEightOffsetPage, Error>) -> Void
    ) {
        lock.lock()
        let visit = self.visit
        let page = pageAtOffset[visit]?[offset] ?? (offset == 0 ? 1 : offset / limit + 1)
        lock.unlock()
        source.load(query: query, page: page) { [self] result in
            if case .success(let response) = result {
                lock.lock()
                // A completion that runs again (or a late one) must not move the table back.
                let next = offset + response.rows.count
                pageAtOffset[visit, default: [:]][next] = max(pageAtOffset[visit]?[next] ?? 0, page + 1)
                lock.unlock()
            }
            let mapped = result.map { response in
                RoundEightOffsetPage(
                    contacts: response.rows.map { RoundEightContact(id: $0.id, name: $0.title) },
                    hasMore: response.hasMore)
            }
            DispatchQueue.main.async { completion(mapped) }
        }
    }
}

struct RoundEightOffsetListAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        triggers: [.refresh], loader: .completionHandler, stopsOnNoProgress: false)

    let model: RoundEightOffsetListModel
    let service: RoundEightKitContactsService

    init(source: PageSource) async {
        let service = RoundEightKitContactsService(source: source)
        self.service = service
        model = await RoundEightOffsetListModel(service: service, query: "A", limit: 20)
    }

    func bottomReached() async { await model.loadMoreIfNeeded() }
    func retry() async { await model.retry() }
    func changeQuery(to query: String) async {
        service.beginVisit()
        await model.search(query)
    }
    func refresh() async {
        service.beginVisit()
        await model.pullToRefresh()
    }

    func snapshot() async -> PagerSnapshot<Int> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.contacts.map(\.id), isLoading: model.isLoading,
                hasMore: model.hasMore, showsError: model.showsError)
        }
    }
}
