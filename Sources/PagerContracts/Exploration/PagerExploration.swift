import ConformanceKit
import Foundation

/// Explores a pager through generated schedules, checks the invariants I1–I6 after every
/// step, and shrinks the first failure to a minimal schedule with a paste-ready regression
/// test.
///
/// ```swift
/// let result = await PagerExploration.explore(
///     MyPagerAdapter.self, options: ExplorationOptions(strategy: .random(seed: 7), budget: 2_000))
/// if let finding = result.finding { print(finding.regressionTest) }
/// ```
///
/// The contracts P1–P13 are fixed timelines; the explorer looks for orderings nobody wrote
/// down: answers out of order, twice, after a query change or refresh, failures and
/// cancellations at any point, pages full of duplicates, last pages and stalled cursors.
public enum PagerExploration {
    /// A failing schedule as the search found it.
    struct Hit: Sendable {
        let index: Int
        let steps: [PagerSchedule.Step]
        let invariant: ContractID
        /// The delivery mode it failed under (async level).
        var mode: DeliveryMode? = nil
        /// What the watchdog said, when the schedule hung.
        var message: String? = nil
    }

    /// Explores a model-level `adapter`.
    /// - Parameters:
    ///   - adapter: The adapter type; each schedule gets a fresh instance.
    ///   - options: Strategy (random seed or exhaustive depth), budget, parallelism.
    /// - Returns: How many schedules ran and the first failure, shrunk, if any.
    public static func explore<Adapter: PagerModelAdapter>(
        _ adapter: Adapter.Type, options: ExplorationOptions = ExplorationOptions()
    ) async -> ExplorationResult {
        await explore(.model(Adapter.self), options: options)
    }

    /// Explores `adapter` and compares it, step by step, with `reference`: besides I1–I6, the
    /// visible list must equal the reference's for as long as both start the same requests.
    /// - Parameters:
    ///   - adapter: The adapter under check.
    ///   - reference: A correct adapter with the same conforming variations.
    ///   - options: Strategy, budget, parallelism.
    public static func explore<Adapter: PagerModelAdapter, Reference: PagerModelAdapter>(
        _ adapter: Adapter.Type, comparingWith reference: Reference.Type,
        options: ExplorationOptions = ExplorationOptions()
    ) async -> ExplorationResult {
        await explore(.model(Adapter.self, comparingWith: Reference.self), options: options)
    }

    /// Explores an async-level `adapter`: its real async code behind the kit's page source,
    /// each schedule under one delivery mode picked from the schedule's seed (every mode by
    /// default), every step settled by evidence, each schedule inside the watchdog.
    /// - Parameters:
    ///   - adapter: The adapter type; each schedule gets a fresh subject.
    ///   - modes: The delivery modes to pick from.
    ///   - options: Strategy (random seed or exhaustive depth), budget, parallelism, watchdog.
    /// - Returns: How many schedules ran and the first failure, shrunk, if any.
    public static func explore<Adapter: AsyncPagerAdapter>(
        _ adapter: Adapter.Type, modes: [DeliveryMode] = DeliveryMode.allCases,
        options: ExplorationOptions = ExplorationOptions()
    ) async -> ExplorationResult {
        await explore(.async(Adapter.self, modes: modes), options: options)
    }

    static func explore(_ subject: ExplorationSubject, options: ExplorationOptions) async -> ExplorationResult {
        let clock = ContinuousClock()
        let start = clock.now
        let tally = Tally()
        let search: (explored: Int, steps: Int, hit: Hit?) =
            switch options.strategy {
            case .random(let seed): await randomSearch(subject, seed: seed, options: options, tally: tally)
            case .exhaustive(let depth): await exhaustiveSearch(subject, depth: depth, options: options)
            }
        let skipped = tally.total(upTo: search.hit.map { $0.index / Tally.blockSize })
        let toFailure = search.hit.map { _ in seconds(start.duration(to: clock.now)) }
        var finding: ExplorationFinding?
        if let hit = search.hit {
            finding = await shrinkAndReport(hit, subject, options: options)
        }
        return ExplorationResult(
            subject: subject.name, strategy: options.strategy,
            schedules: search.explored, steps: search.steps, finding: finding,
            seconds: seconds(start.duration(to: clock.now)), secondsToFailure: toFailure,
            unobservableTriggers: skipped.unobservable, inapplicableSchedules: skipped.inapplicable)
    }

    // MARK: - Strategies

    private static func randomSearch(
        _ subject: ExplorationSubject, seed: UInt64, options: ExplorationOptions, tally: Tally
    ) async -> (explored: Int, steps: Int, hit: Hit?) {
        let blockSize = Tally.blockSize
        let budget = options.budget
        let maxSteps = options.maxSteps
        return await ParallelSearch.firstHit(
            blocks: (budget + blockSize - 1) / blockSize, parallelism: options.parallelism
        ) { block in
            var explored = 0
            var stepCount = 0
            for index in (block * blockSize)..<min(budget, (block + 1) * blockSize) {
                explored += 1
                let trial = ScheduleTrial(subject: subject, index: index, maxSteps: maxSteps, watchdog: options.watchdog)
                let outcome = await trial.run(seed: seed)
                stepCount += outcome.steps
                tally.add(outcome, block: block)
                if let hit = outcome.hit { return .init(explored: explored, steps: stepCount, hit: hit) }
                // A model-level schedule never suspends: give other work on the cooperative
                // pool (other tests, their watchdogs) a turn between schedules.
                await Task.yield()
            }
            return .init(explored: explored, steps: stepCount, hit: nil)
        }
    }

    private static func exhaustiveSearch(
        _ subject: ExplorationSubject, depth: Int, options: ExplorationOptions
    ) async -> (explored: Int, steps: Int, hit: Hit?) {
        // Subtrees are the valid two-step prefixes, so every core has work.
        let root = await ScheduleExecution.make(subject)
        await root.start()
        let firstSteps = ScheduleGenerator.alphabet(for: root)
        await root.finish()
        var prefixes: [[PagerSchedule.Step]] = []
        for first in firstSteps {
            let execution = await ScheduleExecution.make(subject)
            await execution.start()
            let failed: Bool
            do {
                try await execution.apply(first)
                failed = false
            } catch {
                failed = true
            }
            if failed || depth < 2 {
                prefixes.append([first])
            } else {
                prefixes += ScheduleGenerator.alphabet(for: execution).map { [first, $0] }
            }
            await execution.finish()
        }
        let subtrees = prefixes
        let cap = max(1, options.budget / max(1, subtrees.count))
        return await ParallelSearch.firstHit(blocks: subtrees.count, parallelism: options.parallelism) { block in
            var search = DepthFirst(subject: subject, depth: depth, cap: cap)
            let hit = await search.visit(subtrees[block])
            return .init(
                explored: search.explored, steps: search.steps,
                hit: hit.map { Hit(index: search.explored - 1, steps: $0.steps, invariant: $0.invariant) })
        }
    }

    /// Depth-first search of one subtree, re-executing each prefix on a fresh subject and
    /// pruning a prefix whose fingerprint was already explored with at least as many steps left.
    private struct DepthFirst {
        let subject: ExplorationSubject
        let depth: Int
        let cap: Int
        var explored = 0
        var steps = 0
        var seen: [Int: Int] = [:]

        init(subject: ExplorationSubject, depth: Int, cap: Int) {
            self.subject = subject
            self.depth = depth
            self.cap = cap
        }

        mutating func visit(_ prefix: [PagerSchedule.Step]) async -> (steps: [PagerSchedule.Step], invariant: ContractID)? {
            guard explored < cap else { return nil }
            explored += 1
            await Task.yield()
            let execution = await ScheduleExecution.make(subject)
            await execution.start()
            for step in prefix {
                steps += 1
                do {
                    try await execution.apply(step)
                } catch {
                    await execution.finish()
                    return (prefix, ScheduleExecution.Failure(error).invariant)
                }
            }
            let remaining = depth - prefix.count
            let fingerprint = execution.fingerprint
            let next = remaining > 0 ? ScheduleGenerator.alphabet(for: execution) : []
            await execution.finish()
            guard remaining > 0 else { return nil }
            if let known = seen[fingerprint], known >= remaining { return nil }
            seen[fingerprint] = remaining
            for step in next {
                if let hit = await visit(prefix + [step]) { return hit }
            }
            return nil
        }
    }

    // MARK: - Shrinking and the report

    private static func shrinkAndReport(
        _ hit: Hit, _ subject: ExplorationSubject, options: ExplorationOptions
    ) async -> ExplorationFinding {
        var steps = hit.steps
        let mode = hit.mode
        if options.shrink && hit.message == nil {
            func stillFails(_ candidate: [PagerSchedule.Step]) async -> Bool {
                await watchedReplay(candidate, subject, mode: mode, options: options)?.failure?.invariant
                    == hit.invariant
            }
            // Fewest steps first: drop one step at a time, renumbering the answers after it
            // (plain delta debugging cannot drop a trigger without breaking every later answer).
            var shrinking = true
            while shrinking {
                shrinking = false
                let started = await watchedReplay(steps, subject, mode: mode, options: options)?.started ?? []
                for index in steps.indices.reversed() {
                    let candidate = PagerSchedule.removing(index, from: steps, started: started)
                    if !candidate.isEmpty, await stillFails(candidate) {
                        steps = candidate
                        shrinking = true
                        break
                    }
                }
            }
            steps = await ScheduleShrinker.shrink(steps, simpler: ScheduleGenerator.simpler, stillFails: stillFails).steps
        }
        // Drop the steps that were skipped (they changed nothing) and anything after the failure.
        if hit.message == nil, let replay = await watchedReplay(steps, subject, mode: mode, options: options) {
            let end = replay.failingIndex.map { $0 + 1 } ?? steps.count
            let trimmed = zip(steps.prefix(end), replay.applied).filter(\.1).map(\.0)
            // A step skipped under one delivery mode may still shape the `immediate` replay
            // that plans the answers of `alreadyAvailable`: keep it unless the trimmed
            // schedule fails the same way.
            if mode == nil || trimmed.count == steps.count {
                steps = trimmed
            } else if await watchedReplay(trimmed, subject, mode: mode, options: options)?.failure?.invariant
                == hit.invariant
            {
                steps = trimmed
            }
        }
        let schedule = PagerSchedule(steps)
        let report = await schedule.run(subject, mode: mode, options: RunOptions(watchdog: options.watchdog))
        let violation = report.outcome.violations.first
        let invariant =
            ContractCatalog.descriptor(hit.invariant)
            ?? (hit.invariant == "watchdog"
                ? ContractDescriptor(
                    id: hit.invariant, name: "the schedule hung",
                    rule: "Every step must settle: the subject returns or is provably blocked on the timeline.")
                : ContractDescriptor(
                    id: hit.invariant, name: "adapter error", rule: "The adapter must complete every step."))
        var provenance =
            switch options.strategy {
            case .random(let seed): "random, seed \(seed), schedule \(hit.index + 1)"
            case .exhaustive(let depth): "exhaustive, depth \(depth)"
            }
        if let mode { provenance += ", \(mode)" }
        return ExplorationFinding(
            invariant: invariant, tier: violation?.tier ?? .required, report: report,
            originalSteps: hit.steps.count, shrunkSteps: steps.count,
            scheduleLiteral: schedule.swiftLiteral(indent: ""),
            regressionTest: schedule.regressionTest(
                typeName: subject.typeName, reference: subject.reference?.name, module: subject.module,
                invariant: invariant,
                provenance: provenance, originalSteps: hit.steps.count))
    }

    /// What the random search skipped, per block of schedules, so the totals count only the
    /// blocks the result counts (up to the first hit) and never depend on timing.
    final class Tally: @unchecked Sendable {
        static let blockSize = 16
        private let lock = NSLock()
        private var blocks: [Int: (unobservable: Int, inapplicable: Int)] = [:]

        func add(_ outcome: ScheduleTrial.Outcome, block: Int) {
            lock.withLock {
                var counts = blocks[block] ?? (0, 0)
                counts.unobservable += outcome.unobservableTriggers
                counts.inapplicable += outcome.notApplicable ? 1 : 0
                blocks[block] = counts
            }
        }

        /// The totals over blocks `0 ... last` (every block when `nil`).
        func total(upTo last: Int?) -> (unobservable: Int, inapplicable: Int) {
            lock.withLock {
                blocks.filter { last == nil || $0.key <= last! }.values.reduce((0, 0)) {
                    ($0.0 + $1.unobservable, $0.1 + $1.inapplicable)
                }
            }
        }
    }

    /// A replay for shrinking; at the async level inside the watchdog (`nil`: it hung, so it
    /// does not count as failing the same way).
    private static func watchedReplay(
        _ steps: [PagerSchedule.Step], _ subject: ExplorationSubject, mode: DeliveryMode?,
        options: ExplorationOptions
    ) async -> PagerSchedule.Replay? {
        guard mode != nil else { return await PagerSchedule.replay(steps, against: subject) }
        return try? await withWatchdog(limit: options.watchdog, waitingFor: { "a replay while shrinking" }) {
            await PagerSchedule.replay(steps, against: subject, mode: mode)
        }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
