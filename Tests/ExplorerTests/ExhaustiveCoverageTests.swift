@testable import BundledImplementations
import ConformanceTesting
import Testing

/// An exhaustive search that finds nothing says whether it ran every schedule up to its depth,
/// or how deep it got before the budget ran out: "no rule failed in 19,996 schedules" alone did
/// not tell the ninth trial's author whether depth 5 was covered.
@Suite struct ExhaustiveCoverageTests {
    @Test func aSearchThatRanEveryScheduleSaysSo() async {
        let result = await PagerExploration.explore(
            FeedStoreAdapter.self, options: ExplorationOptions(strategy: .exhaustive(depth: 3), budget: 100_000))
        #expect(result.finding == nil, "\(result.fullText)")
        #expect(result.completeDepth == 3)
        #expect(result.headline.contains("(exhaustive, depth 3; all of them)"), "\(result.headline)")
    }

    @Test func aSearchTheBudgetCutShortSaysHowDeepItGot() async throws {
        let complete = await PagerExploration.explore(
            FeedStoreAdapter.self, options: ExplorationOptions(strategy: .exhaustive(depth: 3), budget: 100_000))
        // Twice what depth 3 needs: the deepening reruns the shorter lengths, and shares the
        // budget evenly between subtrees, so depth 4 cannot be complete.
        let cut = await PagerExploration.explore(
            FeedStoreAdapter.self,
            options: ExplorationOptions(strategy: .exhaustive(depth: 4), budget: complete.schedules * 2))
        #expect(cut.finding == nil, "\(cut.fullText)")
        let depth = try #require(cut.completeDepth)
        #expect((2...3).contains(depth))
        #expect(cut.headline.contains("the budget ran out: complete to depth \(depth)"), "\(cut.headline)")
    }
}
