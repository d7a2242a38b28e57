@testable import BundledImplementations
import ConformanceTesting
import Testing

/// One bundled model-level pager the explorer can drive (async pagers: `AsyncExplorerTests`).
struct ExplorableCase: Sendable, CustomTestStringConvertible {
    let implementation: ImplementationUnderCheck

    var testDescription: String { "\(implementation.name) (\(implementation.kind.rawValue))" }

    static let mutants = BundledImplementations.pagers
        .filter { $0.kind == .mutant && $0.level == .model && $0.isExplorable }.map(ExplorableCase.init)
    static let correct = BundledImplementations.pagers
        .filter { $0.kind != .mutant && $0.level == .model && $0.isExplorable }.map(ExplorableCase.init)
}

/// The explorer is told nothing about which contract a mutant breaks: "found" means some
/// invariant failed. It must find every pager mutant and stay silent on every reference and
/// adopter.
@Suite struct ExplorerBitesTests {
    // Mutants: the first finding is enough here (the CLI and `EveryFindingTests` explore the
    // whole budget); correct implementations run the whole budget either way.
    static let options = ExplorationOptions(strategy: .random(seed: 1), budget: 2_000, stopsAtFirstFinding: true)

    @Test func everyBundledPagerMutantIsExplorable() {
        let mutants = BundledImplementations.pagers.filter { $0.kind == .mutant && $0.level == .model }
        // Left to their fixed contracts: `TimelineFeed` stops too early (P12 counts pages without
        // progress that were not in a row), and the explorer judges requests made, not missing;
        // `ActivityTimeline` compares whole items, and the explorer's rows are never edited;
        // `CatalogSearch` misses a cleared search, and the explorer's queries are never cleared;
        // `CommentThread` shows a failure delivered after its request's page, and the explorer
        // never fails a request it answered.
        #expect(
            Set(mutants.filter { !$0.isExplorable }.map(\.name))
                == ["TimelineFeed", "ActivityTimeline", "CatalogSearch", "CommentThread"])
        #expect(ExplorableCase.mutants.count == mutants.count - 4)
        #expect(ExplorableCase.mutants.count >= 15)
        #expect(ExplorableCase.correct.count >= 3)
    }

    @Test(arguments: ExplorableCase.mutants)
    func explorerFindsTheMutant(_ mutant: ExplorableCase) async throws {
        let result = try #require(await mutant.implementation.explore(Self.options))
        let finding = try #require(result.finding, "\(result.headline)")
        #expect(finding.invariant.id.family == "P", "named by the contract whose rule it breaks")
        #expect(finding.shrunkSteps <= finding.originalSteps)
        #expect(finding.shrunkSteps <= 8, "shrunk schedule:\n\(finding.scheduleLiteral)")
        // The shrunk schedule's own replay fails with the same invariant, named in the summary.
        let violation = try #require(finding.report.outcome.violations.first)
        #expect(
            violation.summary.hasPrefix(finding.invariant.title + " (invariant I")
                || violation.summary.hasPrefix(finding.invariant.title + " (liveness at the schedule's end)")
                || violation.summary.hasPrefix(finding.invariant.title + " (a page delivered again changes nothing)"),
            "the invariant or check beside it")
        // The adapter's type: the implementation's name, or that name with "Adapter".
        #expect(finding.regressionTest.contains("await schedule.check(\(mutant.implementation.name)"))
    }

    @Test(arguments: ExplorableCase.correct)
    func explorerStaysSilentOnCorrectPagers(_ correct: ExplorableCase) async throws {
        let result = try #require(await correct.implementation.explore(Self.options))
        #expect(result.finding == nil, "\(result.fullText)")
        #expect(result.schedules == Self.options.budget)
    }

    @Test(arguments: ExplorableCase.correct)
    func exhaustiveSearchStaysSilentOnCorrectPagers(_ correct: ExplorableCase) async throws {
        let options = ExplorationOptions(strategy: .exhaustive(depth: 5), budget: 20_000)
        let result = try #require(await correct.implementation.explore(options))
        #expect(result.finding == nil, "\(result.fullText)")
        #expect(result.schedules > 1_000)
    }

    /// A bug, the depth searched, and the length of its shortest failing schedule.
    struct MinimalDepthCase: Sendable, CustomTestStringConvertible {
        let subject: any PagerModelAdapter.Type
        let contract: ContractID
        let depth: Int
        let steps: Int
        let why: String
        var testDescription: String { "\(subject) at depth \(depth)" }
    }

    static let minimalDepthCases = [
        // Bottom reached, the last page: the liveness check's own bottom trigger then asks for
        // a page after the end (a third step is not needed to see it).
        MinimalDepthCase(
            subject: PagerThatForgetsTheEnd.self, contract: "P7", depth: 3, steps: 2,
            why: "found at its minimal depth"),
        // A four-step failure sits in an earlier subtree than the one-step fill; deepening each
        // subtree on its own returned the four steps.
        MinimalDepthCase(
            subject: PagerThatCommitsFillAtTheEnd.self, contract: "P13", depth: 4, steps: 1,
            why: "a shortest schedule across subtrees"),
    ]

    @Test(arguments: minimalDepthCases)
    func exhaustiveSearchReturnsAShortestFailingSchedule(_ bug: MinimalDepthCase) async throws {
        let options = ExplorationOptions(strategy: .exhaustive(depth: bug.depth), budget: 50_000)
        let result = await PagerExploration.explore(bug.subject, options: options)
        let finding = try #require(result.finding)
        #expect(finding.invariant.id == bug.contract)
        #expect(finding.shrunkSteps == bug.steps, "\(bug.why): \(finding.scheduleLiteral)")
    }

    @Test func theSameSeedReproducesTheSameRunOnAnyNumberOfCores() async throws {
        let one = await PagerExploration.explore(
            PagerThatAcceptsRepeatedCompletions.self,
            options: ExplorationOptions(strategy: .random(seed: 99), budget: 500, parallelism: 1))
        let two = await PagerExploration.explore(
            PagerThatAcceptsRepeatedCompletions.self,
            options: ExplorationOptions(strategy: .random(seed: 99), budget: 500, parallelism: 2))
        #expect(one.schedules == two.schedules)
        #expect(one.steps == two.steps)
        #expect(one.finding?.regressionTest == two.finding?.regressionTest)
        #expect(one.finding != nil)
    }

    @Test func differentSeedsExploreDifferentSchedules() async {
        let first = await PagerExploration.explore(
            PagerThatChainsEmptyPages.self, options: ExplorationOptions(strategy: .random(seed: 1), budget: 500))
        let second = await PagerExploration.explore(
            PagerThatChainsEmptyPages.self, options: ExplorationOptions(strategy: .random(seed: 2), budget: 500))
        #expect(first.steps != second.steps || first.schedules != second.schedules)
    }
}
