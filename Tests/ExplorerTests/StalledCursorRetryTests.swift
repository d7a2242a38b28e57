@testable import BundledImplementations
import ConformanceTesting
import Testing

/// P10 stops automatic loading at a stalled cursor; a retry the user taps may ask again, and
/// the oracle then follows whether the pager showed or refused the stalled page.
struct StalledCursorRetryTests {
    /// The first page stalls its cursor (none requested, none returned, more to come); the
    /// user taps retry; the retried first page arrives.
    let retryAfterAStalledFirstPage: PagerSchedule = [
        .bottomReached,
        .deliver(request: 1, rows: [1], cursor: .stalled),
        .retry,
        .deliver(request: 2, rows: [2, 3]),
    ]

    /// `DirectoryPager` refuses the stalled page and lets retry ask again: conforming.
    @Test func aRetryAtAStalledCursorMayAskAgain() async {
        let report = await retryAfterAStalledFirstPage.run(against: DirectoryPagerAdapter.self, modes: [.immediate])
        #expect(report.outcome == .passed, "\(report.fullText)")
    }

    /// The reference refuses the retry at a protocol error: conforming too.
    @Test func aRetryAtAStalledCursorMayDoNothing() async {
        let report = await retryAfterAStalledFirstPage.run(against: CursorPagerAdapter.self)
        #expect(report.outcome == .passed, "\(report.fullText)")
    }

    /// A bottom trigger at the stalled cursor is still P10's bug.
    @Test func aBottomTriggerAtAStalledCursorIsStillP10() async throws {
        let schedule: PagerSchedule = [
            .bottomReached,
            .deliver(request: 1, rows: [1]),
            .bottomReached,
            .deliver(request: 2, rows: [2], cursor: .stalled),
            .bottomReached,
        ]
        let report = await schedule.run(against: CursorPagerWithoutStallCheck.self)
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        #expect(violation.summary.hasPrefix("P10 cursor-stall protocol error"), "\(violation.summary)")
    }
}
