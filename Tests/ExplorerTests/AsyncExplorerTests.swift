@testable import BundledImplementations
import ConformanceTesting
import Testing

/// One bundled async-level pager the explorer drives.
struct AsyncExplorableCase: Sendable, CustomTestStringConvertible {
    let implementation: ImplementationUnderCheck

    var testDescription: String { "\(implementation.name) (\(implementation.kind.rawValue))" }

    static let mutants = BundledImplementations.pagers
        .filter { $0.kind == .mutant && $0.level == .async && $0.isExplorable }
        .map(AsyncExplorableCase.init)
    static let adopters = BundledImplementations.pagers
        .filter { $0.kind != .mutant && $0.level == .async && $0.isExplorable }
        .map(AsyncExplorableCase.init)
}

/// The explorer drives real async code (view models, actors, completion handlers) behind the
/// kit's page source: it must find every async mutant with a schedule no longer than the fixed
/// contract timeline that catches it, flag no correct adopter, and never hang.
@Suite struct AsyncExplorerTests {
    // Mutants: the first finding is enough here (the CLI and `EveryFindingTests` explore the
    // whole budget); correct implementations run the whole budget either way.
    static let options = ExplorationOptions(strategy: .random(seed: 1), budget: 2_000, stopsAtFirstFinding: true)

    /// Mutants whose bug the explorer's server cannot show: named, not explored
    /// (`ActivityFeedStore` needs a cursor repeated after a refresh, which only P9's timeline
    /// gives, every explored answer carrying a new cursor; `ActivityLogStore` shows no error after
    /// a retried page fails again, and the explorer does not require one; `OrderHistory` keeps an
    /// earlier filter's error, and the explorer asks nothing of a bottom trigger under an error;
    /// `ArticleFeed` de-duplicates against its last 50 rows, and explored lists stay shorter).
    static let leftToTheirFixedContracts: Set<String> = [
        "ActivityFeedStore", "ActivityLogStore", "OrderHistory", "ArticleFeed",
    ]

    @Test func everyBundledAsyncPagerIsExplorable() {
        // The app-style pagers too (appear, fill the screen, debounce, serial queries, refresh
        // only), and the event loops (EighthTrial, EleventhTrial).
        let asyncPagers = BundledImplementations.pagers.filter { $0.level == .async }
        #expect(AsyncExplorableCase.mutants.count + AsyncExplorableCase.adopters.count
            == asyncPagers.count - Self.leftToTheirFixedContracts.count)
        #expect(AsyncExplorableCase.mutants.count == 32)
        #expect(AsyncExplorableCase.adopters.count == 30)
        #expect(Set(asyncPagers.filter { !$0.isExplorable }.map(\.name)) == Self.leftToTheirFixedContracts)
    }

    // One subject at a time: each explores on every core already, and a schedule's watchdog
    // measures wall time, which subjects explored side by side stretch.
    @Test(.serialized, arguments: AsyncExplorableCase.mutants)
    func explorerFindsTheAsyncMutant(_ mutant: AsyncExplorableCase) async throws {
        let implementation = mutant.implementation
        let result = try #require(await implementation.explore(Self.options))
        let finding = try #require(result.finding, "\(result.headline)")
        #expect(finding.invariant.id.family == "P", "named by the contract whose rule it breaks")
        let violation = try #require(finding.report.outcome.violations.first)
        #expect(
            violation.summary.hasPrefix(finding.invariant.title + " (invariant I")
                || violation.summary.hasPrefix(finding.invariant.title + " (liveness at the schedule's end)")
                || violation.summary.hasPrefix(finding.invariant.title + " (a page delivered again changes nothing)"),
            "the invariant or check beside it")
        // No longer than the shortest fixed contract timeline of its ledger that fails.
        var fixed = Int.max
        for entry in implementation.ledger.entries {
            if let step = await implementation.run(entry.contract).outcome.violations.first?.step {
                fixed = min(fixed, step)
            }
        }
        #expect(finding.shrunkSteps <= fixed, "shrunk schedule:\n\(finding.scheduleLiteral)")
    }

    @Test func theCallbackMutantFailsOnlyWhenAnswersAreAlreadyAvailable() async throws {
        let options = ExplorationOptions(strategy: .random(seed: 1), budget: 300)
        let found = await PagerExploration.explore(
            CallbackControllerThatMarksLoadingAfterTheCallAdapter.self, options: options)
        let finding = try #require(found.finding)
        #expect(finding.report.subject.contains("\(DeliveryMode.alreadyAvailable)"))
        let silent = await PagerExploration.explore(
            CallbackControllerThatMarksLoadingAfterTheCallAdapter.self, modes: [.immediate, .fromAnotherTask],
            options: options)
        #expect(silent.finding == nil, "\(silent.fullText)")
        #expect(silent.schedules == 300)
    }

    // One subject at a time: each explores on every core already, and a schedule's watchdog
    // measures wall time, which subjects explored side by side stretch.
    @Test(.serialized, arguments: AsyncExplorableCase.adopters)
    func explorerStaysSilentOnCorrectAsyncAdopters(_ adopter: AsyncExplorableCase) async throws {
        let options = ExplorationOptions(strategy: .random(seed: 3), budget: 1_000)
        let result = try #require(await adopter.implementation.explore(options))
        // A watchdog here would be a defect of the kit's settling, reported as a finding.
        #expect(result.finding == nil, "\(result.fullText)")
        #expect(result.schedules == options.budget)
    }

    @Test func theSameSeedGivesTheSameResultTwice() async throws {
        let options = ExplorationOptions(strategy: .random(seed: 11), budget: 300)
        let first = await PagerExploration.explore(JoiningFeedViewModelAdapter.self, options: options)
        let second = await PagerExploration.explore(JoiningFeedViewModelAdapter.self, options: options)
        #expect(first.finding == nil)
        #expect(first.schedules == second.schedules)
        #expect(first.steps == second.steps)
        #expect(first.unobservableTriggers == second.unobservableTriggers)
        #expect(first.inapplicableSchedules == second.inapplicableSchedules)

        let mutantOptions = ExplorationOptions(strategy: .random(seed: 5), budget: 2_000, stopsAtFirstFinding: true)
        let one = await PagerExploration.explore(ViewModelThatChecksCancellationBeforeTheAwaitAdapter.self, options: mutantOptions)
        let two = await PagerExploration.explore(ViewModelThatChecksCancellationBeforeTheAwaitAdapter.self, options: mutantOptions)
        let found = try #require(one.finding)
        #expect(one.schedules == two.schedules)
        #expect(one.steps == two.steps)
        #expect(found.scheduleLiteral == two.finding?.scheduleLiteral)
        #expect(found.regressionTest == two.finding?.regressionTest)
    }

    /// A fill-the-screen pager chains its next request at once when the answer is already
    /// there, so an `alreadyAvailable` run numbers its requests otherwise than the `immediate`
    /// run that planned the answers: a step may then answer a request the subject already holds
    /// another answer to. Such a schedule does not apply. Before, the search judged it (2 hits
    /// with seed 1, P2 and P4, on this correct view model), and the finding's replay, planned
    /// from the prefix up to the failure, passed: "2 failures whose replay passed". Replayed
    /// whole, the finding reproduced both as false alarms.
    @Test func aPlannedAnswerANumberingChangeMovedIsNotJudged() async throws {
        let options = ExplorationOptions(strategy: .random(seed: 1), budget: 2_000)
        let result = await PagerExploration.explore(SearchResultsViewModelAdapter.self, options: options)
        #expect(result.finding == nil, "\(result.fullText)")
        #expect(result.unreproducedFailures == 0)
    }

    /// An event loop's loads show their trigger's await in one of three ways, which the runtime
    /// picks from run to run (raised before they park, joined after, or not at all): each
    /// such wait spends the rung a probe would, so the search takes the same course every time.
    /// Before, three runs of 500 schedules skipped 477, 485 and 488 triggers.
    @Test func anEventLoopGivesTheSameResultTwice() async throws {
        let options = ExplorationOptions(strategy: .random(seed: 1), budget: 300)
        let first = await PagerExploration.explore(EventFeedModelAdapter.self, options: options)
        let second = await PagerExploration.explore(EventFeedModelAdapter.self, options: options)
        #expect(first.finding == nil, "\(first.fullText)")
        #expect(first.steps == second.steps)
        #expect(first.unobservableTriggers == second.unobservableTriggers)
        #expect(first.inapplicableSchedules == second.inapplicableSchedules)
        #expect(first.unreproducedFailures == 0 && second.unreproducedFailures == 0)
    }

    /// The schedule the first attempt hung on: four triggers join one parked load, which
    /// spends the five task priorities. The fifth trigger is now skipped, with the reason in
    /// the transcript, and the replay ends (in milliseconds when the machine is idle; the
    /// watchdog is generous because the whole suite runs at once on two cores).
    @Test func aScheduleThatSpendsThePriorityLadderDoesNotHang() async throws {
        let schedule: PagerSchedule = [
            .bottomReached,
            .deliver(request: 1, rows: [5, 4, 4]),
            .bottomReached,
            .bottomReached,
            .deliver(request: 2, rows: [1]),
            .bottomReached,
            .retry,
            .retry,
            .bottomReached,
            .retry,
        ]
        let report = await schedule.run(
            against: JoiningFeedViewModelAdapter.self, options: RunOptions())
        #expect(report.outcome == .passed, "\(report.fullText)")
        let immediate = await schedule.run(
            against: JoiningFeedViewModelAdapter.self, options: RunOptions(), modes: [.immediate])
        let skipped = immediate.transcript.entries.filter { $0.text.contains("skipped") }
        #expect(!skipped.isEmpty, "\(immediate.fullText)")
        #expect(skipped.allSatisfy { $0.text.contains("could not be seen") })
    }
}
