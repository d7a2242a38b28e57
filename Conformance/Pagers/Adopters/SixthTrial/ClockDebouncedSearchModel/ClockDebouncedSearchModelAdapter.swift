import PagerContracts
import Foundation

/// A clock whose `sleep` returns at once (after a cancellation check): the debounce is
/// not what the P contracts judge, and no test may wait on wall time.
struct ImmediateClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration = .zero
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }
    var now: Instant { Instant() }
    var minimumResolution: Duration { .zero }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
    }
}

struct DSSourceClient: DSSearchClient {
    let source: PageSource
    func search(query: String, cursor: String?) async throws -> DSPage {
        let response = try await source.load(query: query, cursor: cursor)
        return DSPage(
            items: response.rows.map { DSItem(id: $0.stringID, name: $0.title) },
            nextCursor: response.hasMore ? response.nextCursor : nil)
    }
}

struct ClockDebouncedSearchModelAdapter: AsyncPagerAdapter {
    static let capabilities = PagerCapabilities(
        pagination: .cursors, triggers: [.appear, .refresh], stopsOnNoProgress: false)

    let model: ClockDebouncedSearchModel

    init(source: PageSource) async {
        model = await ClockDebouncedSearchModel(
            client: DSSourceClient(source: source), clock: ImmediateClock(), initialQuery: "A")
    }

    static func itemID(for row: PageRow) -> String { row.stringID }

    /// The model's triggers start `Task`s and return; await what they started.
    private func awaitLoad() async { await model.loadTask?.value }

    func appear() async { await model.onAppear(); await awaitLoad() }
    func bottomReached() async { await model.reachedBottom(); await awaitLoad() }
    func changeQuery(to query: String) async {
        await MainActor.run { model.searchText = query }
        await model.debounceTask?.value
        await awaitLoad()
    }
    func refresh() async { await model.refresh(); await awaitLoad() }
    func retry() async { await model.retry(); await awaitLoad() }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.items.map(\.id), isLoading: model.isLoading,
                hasMore: model.hasMore, showsError: model.error != nil)
        }
    }
}
