@testable import BundledImplementations
import ConformanceTesting
import Testing

/// The optional differential check: the visible list must equal a reference's while both
/// start the same requests.
@Suite struct DifferentialTests {
    // Mutants: the first finding is enough here (the CLI and `EveryFindingTests` explore the
    // whole budget); correct implementations run the whole budget either way.
    static let options = ExplorationOptions(strategy: .random(seed: 5), budget: 1_000, stopsAtFirstFinding: true)

    @Test func aReferenceAgreesWithItself() async {
        let seed = await PagerExploration.explore(SeedPagerAdapter.self, comparingWith: SeedPagerAdapter.self, options: Self.options)
        #expect(seed.finding == nil, "\(seed.fullText)")
        let cursor = await PagerExploration.explore(CursorPagerAdapter.self, comparingWith: CursorPagerAdapter.self, options: Self.options)
        #expect(cursor.finding == nil, "\(cursor.fullText)")
    }

    @Test func theDifferentialFlagsAConformingVariationSoItIsOptIn() async throws {
        // FeedStore keeps its items on screen during a refresh; the reference clears them. Both
        // conform, and the invariants accept both: a differential check holds a pager to one
        // reference's choices, which is why it is opt-in and wants a like-minded reference.
        let alone = await PagerExploration.explore(FeedStoreAdapter.self, options: Self.options)
        #expect(alone.finding == nil, "\(alone.fullText)")
        let compared = await PagerExploration.explore(FeedStoreAdapter.self, comparingWith: SeedPagerAdapter.self, options: Self.options)
        let finding = try #require(compared.finding)
        #expect(finding.scheduleLiteral.contains(".refresh"))
    }

    @Test func theDifferentialIsStricterThanTheInvariants() async throws {
        let alone = await PagerExploration.explore(PagerThatKeepsItemsUntilTheNewQueryLoads.self, options: Self.options)
        #expect(alone.finding == nil, "\(alone.fullText)")
        let compared = await PagerExploration.explore(
            PagerThatKeepsItemsUntilTheNewQueryLoads.self, comparingWith: SeedPagerAdapter.self, options: Self.options)
        let finding = try #require(compared.finding)
        #expect(finding.invariant.id == "P2")
        #expect(finding.report.outcome.violations.first?.summary.contains("differential check") == true)
        #expect(finding.regressionTest.contains(
            "await schedule.check(PagerThatKeepsItemsUntilTheNewQueryLoads.self, comparingWith: SeedPagerAdapter.self)"))
    }

    @Test func theDifferentialStillFindsAMutant() async {
        let result = await PagerExploration.explore(
            PagerThatSortsAfterDeduplicating.self, comparingWith: SeedPagerAdapter.self, options: Self.options)
        #expect(result.finding?.invariant.id == "P2")
    }
}
