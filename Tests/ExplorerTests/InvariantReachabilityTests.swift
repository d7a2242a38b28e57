import ConformanceTesting
import Testing

/// Every pager invariant can fail: I2 through a fixture (no bundled mutant breaks it), the
/// others through the bundled mutants (`ExplorerBitesTests`).
@Suite struct InvariantReachabilityTests {
    @Test func duplicateVisibleIDsAreP2ByInvariantI2() async throws {
        let result = await PagerExploration.explore(
            PagerThatAppendsDuplicates.self, options: ExplorationOptions(strategy: .random(seed: 1), budget: 500))
        let finding = try #require(result.finding)
        #expect(finding.invariant.id == "P2")
        #expect(finding.report.outcome.violations.first?.summary.contains("(invariant I2") == true)
        #expect(finding.shrunkSteps <= 4, "\(finding.scheduleLiteral)")
    }

    @Test func aHandWrittenScheduleReachesI2() async {
        let schedule: PagerSchedule = [.bottomReached, .deliver(request: 1, rows: [1, 1])]
        let report = await schedule.run(against: PagerThatAppendsDuplicates.self)
        #expect(report.outcome.violations.first?.summary.hasPrefix("P2 cross-page duplicate IDs (invariant I2 no duplicate visible IDs): Expected") == true)
    }
}

/// No invariant is stricter than its rule.
@Suite struct InvariantLeniencyTests {
    @Test func aPageRefusedAtAStalledCursorIsNotDemanded() async {
        let schedule: PagerSchedule = [
            .bottomReached, .deliver(request: 1, rows: [1, 2]), .bottomReached,
            .deliver(request: 2, rows: [3], cursor: .stalled), .bottomReached,
        ]
        let report = await schedule.run(against: CursorPagerThatRefusesAStalledPage.self)
        #expect(report.outcome == .passed, "\(report.fullText)")
    }

    @Test func theExplorerDoesNotFlagAPagerThatRefusesAStalledPage() async {
        let result = await PagerExploration.explore(
            CursorPagerThatRefusesAStalledPage.self,
            options: ExplorationOptions(strategy: .random(seed: 1), budget: 1_000))
        #expect(result.finding == nil, "\(result.fullText)")
    }

    /// A refused query change starts nothing: the list stays on its query, and the bottom
    /// trigger after the page arrives loads that query's next page.
    @Test func aRefusedQueryChangeLeavesTheListOnItsQuery() async {
        let schedule: PagerSchedule = [
            .bottomReached, .changeQuery, .deliver(request: 1, rows: [1, 2]), .bottomReached,
            .deliver(request: 2, rows: [3]),
        ]
        let report = await schedule.run(against: PagerThatRefusesQueryChangesWhileLoading.self)
        #expect(report.outcome == .passed, "\(report.fullText)")
        #expect(report.fullText.contains("the list stays on query A"), "\(report.fullText)")
    }

    @Test func theExplorerDoesNotFlagAPagerThatRefusesQueryChangesWhileLoading() async {
        let result = await PagerExploration.explore(
            PagerThatRefusesQueryChangesWhileLoading.self,
            options: ExplorationOptions(strategy: .random(seed: 1), budget: 1_000))
        #expect(result.findings.isEmpty, "\(result.fullText)")
    }
}
