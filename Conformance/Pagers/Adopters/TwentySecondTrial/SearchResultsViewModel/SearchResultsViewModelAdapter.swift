import PagerContracts
import Foundation
// In the app's test target, also: @testable import <the app module>

/// Runs `SearchResultsViewModel` against the kit's async pager contracts.
///
/// ```swift
/// @Test(arguments: PagerContract.all(for: SearchResultsViewModelAdapter.self))
/// func searchResultsConform(_ contract: PagerContract) async {
///     await contract.check(SearchResultsViewModelAdapter.self)
/// }
/// ```
struct SearchResultsViewModelAdapter: AsyncPagerAdapter {
    typealias ItemID = String

    static let capabilities = PagerCapabilities(
        pagination: .cursors,
        triggers: [.refresh, .fillScreen],
        noProgressLimit: 3,
        loader: .asyncAwait,
        clearedQuery: "")

    /// Two pages' worth of rows, as the iPad layout shows (the app's pages hold 20 results).
    static let iPadFillTarget = 40

    let model: SearchResultsViewModel

    init(source: PageSource) async {
        model = await SearchResultsViewModel(
            searchText: Self.searchText(for: "A"),
            endpoint: { query, cursor in
                let response = try await source.load(query: query, cursor: cursor)
                return Trial22SearchResultsPage(
                    hits: response.rows.map { SearchHit(id: $0.stringID, title: $0.title) },
                    // The app's API has no `hasMore`: it ends the results with a nil cursor.
                    nextCursor: response.hasMore ? response.nextCursor : nil)
            },
            clock: Trial22ImmediateClock(),
            debounce: .milliseconds(300),
            minimumVisibleRows: Self.iPadFillTarget,
            minimumQueryLength: 2,
            noProgressLimit: 3)
    }

    /// The kit's "A", "B", … become texts the screen searches for; its cleared query ("") stays
    /// the cleared field.
    static func searchText(for query: String) -> String {
        query.isEmpty ? "" : "\(query) lamp"
    }

    static func itemID(for row: PageRow) -> String { row.stringID }

    func bottomReached() async {
        await model.loadNextPage()
    }

    func changeQuery(to query: String) async {
        await model.searchTextChanged(to: Self.searchText(for: query))
    }

    func refresh() async {
        await model.refresh()
    }

    func retry() async {
        await model.retry()
    }

    func fillScreen() async {
        await model.fillVisibleRows()
    }

    func snapshot() async -> PagerSnapshot<String> {
        await MainActor.run {
            PagerSnapshot(
                visibleIDs: model.hits.map(\.id),
                isLoading: model.isLoading,
                hasMore: model.hasMoreResults,
                showsError: model.errorMessage != nil,
                hasProtocolError: model.stall != nil)
        }
    }
}

/// The debounce clock for the contracts: the kit does not move time for pagers, so the debounce
/// ends at once and the trigger is judged at that moment (Docs/AsyncSettling.md).
struct Trial22ImmediateClock: Clock {
    typealias Duration = Swift.Duration

    struct Instant: InstantProtocol {
        typealias Duration = Swift.Duration

        var offset: Swift.Duration = .zero

        func advanced(by duration: Swift.Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        func duration(to other: Instant) -> Swift.Duration {
            other.offset - offset
        }

        static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    var now: Instant { Instant() }

    var minimumResolution: Swift.Duration { .zero }

    func sleep(until deadline: Instant, tolerance: Swift.Duration? = nil) async throws {
        try Task.checkCancellation()
    }
}
