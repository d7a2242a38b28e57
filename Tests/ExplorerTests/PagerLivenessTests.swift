@testable import BundledImplementations
import ConformanceTesting
import Testing

/// The liveness check at a schedule's end: once every open request is answered, the loading
/// state has ended and a trigger still starts a request.
struct PagerLivenessTests {
    /// The system cancels the live request: a pager that takes every cancellation for "a newer
    /// request superseded this one" stays loading for good.
    let cancelledLiveRequest: PagerSchedule = [
        .bottomReached,
        .fail(request: 1, .cancelled),
    ]

    @Test func aLoadingStateThatNeverEndsFailsP6() async throws {
        let report = await cancelledLiveRequest.run(against: ReducerFeedStateAdapter.self)
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        #expect(violation.summary.hasPrefix("P6 failure keeps items, retry same page (liveness at the schedule's end)"))
        #expect(violation.actual?.contains("loading true") == true, "\(violation)")
    }

    @Test func theReferenceEndsItsLoadingAndLoadsAgain() async {
        let report = await cancelledLiveRequest.run(against: SeedPagerAdapter.self)
        #expect(report.outcome == .passed, "\(report.fullText)")
        // The check answered nothing (nothing was open) and its bottom trigger asked for page 1.
        #expect(report.transcript.entries.last?.text.contains("request #2 (page 1") == true)
    }

    /// A stale page that moved what the snapshot does not show (`hasMore`) is named by the
    /// stale answer (P4), not by the trigger that then does nothing.
    @Test func aDeadTriggerAfterAStaleAnswerIsNamedByTheStaleAnswer() async throws {
        let schedule: PagerSchedule = [
            .bottomReached,
            .changeQuery,
            .deliver(request: 1, rows: [], hasMore: false),
        ]
        let report = await schedule.run(against: ViewModelThatChecksCancellationBeforeTheAwaitAdapter.self, modes: [.immediate])
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        #expect(violation.summary.hasPrefix("P4 late stale response (liveness at the schedule's end)"), "\(violation.summary)")
    }

    /// `hasMore: false` shown before the first page of a query is accepted says nothing the
    /// server said: a first bottom trigger that loads nothing is still dead (P1).
    @Test func aDeadFirstTriggerBehindAnEarlyHasMoreFalseFailsP1() async throws {
        let report = await PagerSchedule([]).run(against: PagerWhoseFirstTriggerIsDead.self)
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        #expect(violation.summary.hasPrefix("P1 duplicate bottom trigger (liveness at the schedule's end)"), "\(violation.summary)")
        // After a query change its trigger works, and the check passes.
        let afterQueryChange = await PagerSchedule([.changeQuery]).run(against: PagerWhoseFirstTriggerIsDead.self)
        #expect(afterQueryChange.outcome == .passed, "\(afterQueryChange.fullText)")
    }
}
