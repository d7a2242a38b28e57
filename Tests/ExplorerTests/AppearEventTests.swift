@testable import BundledImplementations
import ConformanceKit
import ConformanceTesting
import Testing

/// The explorer sends a list's appear event as an app does: once, before any other trigger.
@Suite struct AppearEventTests {
    /// The sixth trial's false alarm: after a refresh loaded an empty last page, the first
    /// bottom trigger became the appear event, the handler (`guard items.isEmpty`) rightly
    /// loaded page 1 again, and the explorer reported a request after the end of the list.
    @Test func aBottomTriggerAfterARefreshIsNotTheAppearEvent() async {
        let report = await PagerSchedule([
            .refresh, .deliver(request: 2, rows: [], hasMore: false), .bottomReached,
        ]).run(against: ShelfPagerThatLoadsOnAppear.self)
        #expect(report.outcome == .passed, "\(report.fullText)")
        #expect(report.transcript.entries.dropFirst().first?.text.hasPrefix("the list appeared → request #1") == true, "\(report.fullText)")
        #expect(report.transcript.entries.filter { $0.text.contains("appeared") }.count == 1, "\(report.fullText)")
        #expect(report.transcript.entries.contains { $0.text.hasPrefix("bottom reached → no request") }, "\(report.fullText)")
    }

    /// A list that loads only on appear is on screen before it is refreshed or searched: the
    /// appear event comes first, in the same step (the first entry is the start state).
    @Test func theAppearEventComesBeforeAFirstQueryChange() async {
        let report = await PagerSchedule([.changeQuery, .deliver(request: 2, rows: [1, 2], hasMore: true)])
            .run(against: ShelfPagerThatLoadsOnAppear.self)
        #expect(report.outcome == .passed, "\(report.fullText)")
        #expect(report.transcript.entries.dropFirst().first?.text.hasPrefix("the list appeared → request #1") == true, "\(report.fullText)")
        #expect(report.transcript.entries.dropFirst().first?.text.contains("; query changed to B → request #2") == true, "\(report.fullText)")
    }

    /// Its steps say `.bottomReached` where its transcript says "the list appeared": the
    /// printed test says why (the eleventh trial read it as a mistake).
    @Test func aPrintedRegressionOfAListThatLoadsOnAppearSaysItAppearsAtTheFirstStep() async throws {
        let result = await PagerExploration.explore(
            LegacyScrollControllerAdapter.self,
            options: ExplorationOptions(strategy: .random(seed: 1), budget: 2_000, stopsAtFirstFinding: true))
        let finding = try #require(result.findings.first, "\(result.fullText)")
        #expect(finding.regressionTest.contains(
            "// LegacyScrollControllerAdapter declares `.appear`: the list appears at the first step"),
            "\(finding.regressionTest)")
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theExplorerFlagsNothingOnAPagerThatLoadsOnAppear(seed: UInt64) async {
        let result = await PagerExploration.explore(
            ShelfPagerThatLoadsOnAppear.self,
            options: ExplorationOptions(strategy: .random(seed: seed), budget: 2_000))
        #expect(result.findings.isEmpty, "\(result.fullText)")
        #expect(result.schedules == 2_000)
    }
}
