import ConformanceTesting
import Testing

/// A refresh whose own request ends in a cancellation error may be abandoned: the list before
/// it stays, and the next bottom trigger loads that list's next page. Trial 37's feed did so,
/// and the explorer reported P6 for it (it expected the refresh's first page again); P6 and
/// P11 do not ask for that. A refresh abandoned after a timeout, with no error shown, is still
/// P6.
@Suite struct AbandonedRefreshTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func aRefreshEndedByACancellationErrorMayBeAbandoned(seed: UInt64) async {
        let options = ExplorationOptions(strategy: .random(seed: seed), budget: 2_000)
        let result = await PagerExploration.explore(InboxThatAbandonsACancelledRefresh.self, options: options)
        #expect(result.finding == nil, "\(result.fullText)")
        #expect(result.schedules == 2_000)
    }

    @Test func theNextBottomTriggerContinuesTheListBeforeTheRefresh() async {
        let schedule: PagerSchedule = [
            .bottomReached,
            .deliver(request: 1, rows: [1, 2]),
            .refresh,
            .fail(request: 2, .cancelled),
            .bottomReached,
            .deliver(request: 3, rows: [3, 4]),
        ]
        let report = await schedule.run(against: InboxThatAbandonsACancelledRefresh.self)
        #expect(report.outcome == .passed, "\(report.fullText)")
        #expect(report.fullText.contains("request #3 (page 2, query A) (the refresh, ended by a cancellation error, is abandoned"), "\(report.fullText)")
    }

    @Test func aRefreshAbandonedOnATimeoutIsP6() async throws {
        let schedule: PagerSchedule = [
            .bottomReached,
            .deliver(request: 1, rows: [1, 2]),
            .refresh,
            .fail(request: 2, .timeout),
            .bottomReached,
        ]
        let report = await schedule.run(against: InboxThatAbandonsAFailedRefresh.self)
        #expect(report.outcome.violations.first?.summary.hasPrefix("P6 ") == true, "\(report.fullText)")

        let options = ExplorationOptions(strategy: .random(seed: 1), budget: 2_000)
        let result = await PagerExploration.explore(InboxThatAbandonsAFailedRefresh.self, options: options)
        #expect(result.findings.map(\.invariant.id) == ["P6"], "\(result.fullText)")
    }
}
