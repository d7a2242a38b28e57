@testable import BundledImplementations
import ConformanceTesting
import Testing

/// The explorer goes on after a finding: every distinct broken rule within the budget, each
/// shrunk on its own; known findings are declared like a ledger.
@Suite struct EveryFindingTests {
    static let options = ExplorationOptions(strategy: .random(seed: 1), budget: 500)

    @Test func twoUnrelatedBugsAreTwoFindings() async {
        let result = await PagerExploration.explore(PagerWithTwoBugs.self, options: Self.options)
        #expect(Set(result.findings.map(\.invariant.id)) == ["P2", "P7"], "\(result.fullText)")
        for finding in result.findings {
            #expect(finding.shrunkSteps <= 4, "\(finding.invariant.id): \(finding.scheduleLiteral)")
            #expect(finding.regressionTest.contains(finding.invariant.title))
        }
        #expect(result.headline.contains("(and "), "\(result.headline)")
    }

    /// A key derived from the body is one bug, Q6's: two identical creates go out under one key
    /// and the server takes the second for a repeat. The explorer also reported the lost second
    /// task as Q5 (success-only completion), with a hint about 5xx answers that does not apply.
    @Test func identicalSubmitsUnderOneKeyAreOneFinding() async {
        for queue in [MealLogSyncQueueAdapter.self, QueueThatDerivesKeyFromBody.self] as [any WriteQueueAdapter.Type] {
            let result = await exploreQueue(queue)
            #expect(result.findings.map(\.invariant.id) == ["Q6"], "\(result.headline)")
        }
    }

    /// A lost task is named by the last answer to its own key: a queue that deletes a task on
    /// a 503 (and one that completes a task on any answer) also lost the second of two identical
    /// submits after the first met a 409, and an edit while an earlier edit of its entity was
    /// stored, and the explorer named those Q4 and Q12, beside their ledgers' rules. A crash
    /// after the 503 does not change the name: the deleting queue was also Q5 for a task its
    /// 503 removed before a crash.
    @Test func aLostTaskIsNamedByTheAnswerToItsOwnKey() async {
        let deletes = await exploreQueue(QueueThatDeletesTaskOn503.self)
        #expect(deletes.findings.map(\.invariant.id) == ["Q2"], "\(deletes.headline)")
        let completes = await exploreQueue(QueueThatCompletesOnAnyResponse.self)
        #expect(completes.findings.map(\.invariant.id).sorted() == ["Q2", "Q4", "Q5"], "\(completes.headline)")
    }

    /// A task lost with no answer to any key of its own is Q1's finding, whatever other
    /// operations' answers were: an outside trial's outbox, whose pass writes back the copy of
    /// storage it read before a submit, was named Q1, Q5 and Q2 by the answers to identical
    /// bodies (and Q4 in the trial's own run), one bug as three rules with the 5xx rule's hint.
    @Test func aTaskLostWithNoAnswerToItsOwnKeyIsQ1() async throws {
        let snapshot = await exploreQueue(SnapshotOutboxAdapter.self)
        #expect(snapshot.findings.map(\.invariant.id) == ["Q1"], "\(snapshot.headline)")
        let finding = try #require(snapshot.findings.first)
        #expect(finding.report.fullText.contains("none of its own requests was answered at all"))
        #expect(finding.report.fullText.contains("never as a copy read before a submit"))
    }

    private func exploreQueue<A: WriteQueueAdapter>(_ queue: A.Type) async -> ExplorationResult {
        await QueueExploration.explore(A.self, options: ExplorationOptions(strategy: .random(seed: 1), budget: 2_000))
    }

    @Test func theSameSeedGivesTheSameFindingsWithOneWorkerOrMany() async {
        let one = await PagerExploration.explore(
            PagerWithTwoBugs.self, options: ExplorationOptions(strategy: .random(seed: 3), budget: 300, parallelism: 1))
        let many = await PagerExploration.explore(
            PagerWithTwoBugs.self, options: ExplorationOptions(strategy: .random(seed: 3), budget: 300, parallelism: 4))
        #expect(one.findings.map(\.regressionTest) == many.findings.map(\.regressionTest))
        #expect(!one.findings.isEmpty)
    }

    @Test func anExpectedFindingIsShownButIsNotTheFinding() async {
        var options = Self.options
        options.expecting = ["P12"]
        let result = await PagerExploration.explore(PagerThatChainsEmptyPages.self, options: options)
        #expect(result.findings.map(\.invariant.id) == ["P12"])
        #expect(result.finding == nil)
        #expect(result.expectedButNotFound.isEmpty)
        #expect(result.headline.contains("expected: P12"), "\(result.headline)")
    }

    @Test func anExpectedFindingThatStopsHappeningIsReported() async {
        var options = Self.options
        options.expecting = ["P7"]
        let result = await PagerExploration.explore(SeedPagerAdapter.self, options: options)
        #expect(result.findings.isEmpty)
        #expect(result.expectedButNotFound == ["P7"])
        #expect(result.headline.contains("expected but not found: P7"), "\(result.headline)")
    }

    @Test func requiredOnlyLeavesRecommendedRulesOut() async {
        var options = Self.options
        options.requiredOnly = true
        let recommended = await PagerExploration.explore(PagerThatChainsEmptyPages.self, options: options)
        #expect(recommended.findings.isEmpty, "P12 is recommended: \(recommended.fullText)")
        let required = await PagerExploration.explore(PagerWithTwoBugs.self, options: options)
        #expect(Set(required.findings.map(\.invariant.id)) == ["P2", "P7"])
    }

    @Test func theSwiftTestingEntryPointDoesNotFailOnAnExpectedFinding() async {
        // An expected finding is recorded as a warning: were it an error, this test would fail.
        let result = await explore(PagerThatChainsEmptyPages.self, seed: 1, budget: 500, expecting: ["P12"])
        #expect(result.findings.map(\.invariant.id) == ["P12"])
    }
}
