import ConformanceTesting
import Testing

/// Every pager invariant can fail: I2 through a fixture (no bundled mutant breaks it), the
/// others through the bundled mutants (`ExplorerBitesTests`).
@Suite struct InvariantReachabilityTests {
    @Test func duplicateVisibleIDsAreI2() async throws {
        let result = await PagerExploration.explore(
            PagerThatAppendsDuplicates.self, options: ExplorationOptions(strategy: .random(seed: 1), budget: 500))
        let finding = try #require(result.finding)
        #expect(finding.invariant.id == "I2")
        #expect(finding.shrunkSteps <= 4, "\(finding.scheduleLiteral)")
    }

    @Test func aHandWrittenScheduleReachesI2() async {
        let schedule: PagerSchedule = [.bottomReached, .deliver(request: 1, rows: [1, 1])]
        let report = await schedule.run(against: PagerThatAppendsDuplicates.self)
        #expect(report.outcome.violations.first?.summary.hasPrefix("I2 no duplicate visible IDs: Expected") == true)
    }
}
