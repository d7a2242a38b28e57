@testable import BundledImplementations
@testable import PagerContracts
import ReferenceImplementations
import Testing

/// A list that ended, refreshed, and whose refresh load failed: a pager that kept the old
/// list's `hasMore: false` through the refresh loads nothing more. The liveness check named it
/// by the schedule's last suspicious step (P6 for the failure, P4 for a stale answer), so one
/// bug was two findings; it is P7's (only a query change or a refresh starts a new list),
/// whatever came last. (The thirty-fourth trial's controller, written again by another author,
/// first forgot to reset `hasMore` in its refresh.)
@Suite("An end carried over a refresh")
struct CarriedOverEndTests {
    @Test("is P7's, also after a failure of the refresh's own request")
    func anEndKeptThroughARefreshIsP7() async throws {
        let schedule: PagerSchedule = [
            .bottomReached,
            .deliver(request: 1, rows: [1], hasMore: false),
            .refresh,
            .fail(request: 2, .timeout),
        ]
        let report = await schedule.run(against: RefreshKeepsTheEndAdapter.self)
        #expect(report.contract.id == "P7", "\(report.fullText)")
        #expect(report.outcome.violations.first?.summary.contains("neither started one") == true, "\(report.fullText)")
        let correct = await schedule.run(against: SeedPagerAdapter.self)
        #expect(correct.outcome == .passed, "\(correct.fullText)")
    }
}

/// The reference pager behind an adapter that keeps "the list ended" through a refresh: the
/// bottom trigger and retry do nothing, and the snapshot shows no more pages, until a query
/// change.
private struct RefreshKeepsTheEndAdapter: PagerModelAdapter {
    static var capabilities: PagerCapabilities { SeedPagerAdapter.capabilities }
    var wrapped = SeedPagerAdapter()
    var ended = false

    mutating func bottomReached() -> PageRequest<PageTicket>? { ended ? nil : wrapped.bottomReached() }
    mutating func retry() throws -> PageRequest<PageTicket>? { ended ? nil : try wrapped.retry() }
    mutating func refresh() -> PageRequest<PageTicket>? { wrapped.refresh() }
    mutating func fillScreen() -> PageRequest<PageTicket>? { wrapped.fillScreen() }

    mutating func changeQuery(to query: String) -> PageRequest<PageTicket>? {
        ended = false
        return wrapped.changeQuery(to: query)
    }

    mutating func deliver(_ response: PageResponse, for ticket: PageTicket) -> PageRequest<PageTicket>? {
        let next = wrapped.deliver(response, for: ticket)
        if wrapped.snapshot().hasMore == false { ended = true }
        return next
    }

    mutating func fail(_ failure: PageFailure, for ticket: PageTicket) -> PageRequest<PageTicket>? {
        wrapped.fail(failure, for: ticket)
    }

    func snapshot() -> PagerSnapshot<Int> {
        let shown = wrapped.snapshot()
        return PagerSnapshot(
            visibleIDs: shown.visibleIDs, isLoading: shown.isLoading, hasMore: ended ? false : shown.hasMore,
            showsError: shown.showsError, hasProtocolError: shown.hasProtocolError)
    }
}
