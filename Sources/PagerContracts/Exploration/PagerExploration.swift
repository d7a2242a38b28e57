import ConformanceKit
import Foundation

/// Explores a pager through generated schedules, checks the invariants I1–I6 after every
/// step, and shrinks each distinct broken rule to a minimal schedule with a paste-ready regression
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
        /// The tier of the check that failed (a recommended part of a required rule, such as
        /// P10's cycles, is its own finding).
        var tier: ContractTier = .required
        /// The delivery mode it failed under (async level).
        var mode: DeliveryMode? = nil
        /// What the watchdog said, when the schedule hung.
        var message: String? = nil
    }

    /// Explores a model-level `adapter`.
    /// - Parameters:
    ///   - adapter: The adapter type; each schedule gets a fresh instance.
    ///   - options: Strategy (random seed or exhaustive depth), budget, parallelism.
    /// - Returns: How many schedules ran and every distinct broken rule, each shrunk.
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
    /// - Returns: How many schedules ran and every distinct broken rule, each shrunk.
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
        let search: (explored: Int, steps: Int, hits: [Hit])
        switch options.strategy {
        case .random(let seed):
            search = await randomSearch(subject, seed: seed, options: options, tally: tally)
        case .exhaustive(let depth):
            let first = await exhaustiveSearch(subject, depth: depth, options: options)
            search = (first.explored, first.steps, first.hit.map { [$0] }?.filter { counts($0, options) } ?? [])
        }
        let skipped = tally.total(upTo: nil)
        let toFailure = search.hits.isEmpty ? nil : seconds(start.duration(to: clock.now))
        var findings: [ExplorationFinding] = []
        var unreproduced = 0
        for hit in search.hits {
            let finding = await shrinkAndReport(hit, subject, options: options)
            // A failure its own replay does not show again (a hang under a loaded machine) is
            // counted and said, never reported as found.
            guard finding.report.outcome != .passed else {
                unreproduced += 1
                continue
            }
            // Two hits may shrink to one contract (an I1 whose cause was a repeated answer is P3).
            if !findings.contains(where: { $0.kind == finding.kind && $0.tier == finding.tier }) {
                findings.append(finding)
            }
        }
        return ExplorationResult(
            subject: subject.name, strategy: options.strategy,
            schedules: search.explored, steps: search.steps, findings: findings, expected: options.expecting,
            seconds: seconds(start.duration(to: clock.now)), secondsToFailure: toFailure,
            unobservableTriggers: skipped.unobservable, inapplicableSchedules: skipped.inapplicable,
            unreproducedFailures: unreproduced)
    }

    /// Whether `hit` is a finding under `options` (a recommended rule's is not, with
    /// `requiredOnly`).
    private static func counts(_ hit: Hit, _ options: ExplorationOptions) -> Bool {
        !(options.requiredOnly && hit.tier == .recommended)
    }

    /// What makes two hits one finding: the rule and the tier of its part that broke.
    private static func findingKey(_ hit: Hit) -> String {
        "\(hit.invariant) \(hit.tier.rawValue)"
    }

    // MARK: - Strategies

    private static func randomSearch(
        _ subject: ExplorationSubject, seed: UInt64, options: ExplorationOptions, tally: Tally
    ) async -> (explored: Int, steps: Int, hits: [Hit]) {
        let blockSize = Tally.blockSize
        let budget = options.budget
        let maxSteps = options.maxSteps
        let blocks = (budget + blockSize - 1) / blockSize
        let block: @Sendable (Int) async -> ParallelSearch.HitsBlock<Hit> = { block in
            var explored = 0
            var stepCount = 0
            var hits: [Hit] = []
            var keys: Set<String> = []
            for index in (block * blockSize)..<min(budget, (block + 1) * blockSize) {
                explored += 1
                let trial = ScheduleTrial(subject: subject, index: index, maxSteps: maxSteps, watchdog: options.watchdog)
                let outcome = await trial.run(seed: seed)
                stepCount += outcome.steps
                tally.add(outcome, block: block)
                if let hit = outcome.hit, counts(hit, options), keys.insert(findingKey(hit)).inserted {
                    hits.append(hit)
                    if options.stopsAtFirstFinding { break }
                }
                // A model-level schedule never suspends: give other work on the cooperative
                // pool (other tests, their watchdogs) a turn between schedules. (Yielding every
                // 8 schedules instead was measured: two watchdog tests then starved under the
                // thread sanitizer.)
                await Task.yield()
            }
            return .init(explored: explored, steps: stepCount, hits: hits)
        }
        return await ParallelSearch.search(blocks: blocks, options: options, key: findingKey, block)
    }

    private static func exhaustiveSearch(
        _ subject: ExplorationSubject, depth: Int, options: ExplorationOptions
    ) async -> (explored: Int, steps: Int, hit: Hit?) {
        // Async subjects: every delivery mode a fixed schedule can use on its own (answers
        // handed over at registration need a recorded plan, which only random trials make).
        let asyncModes = subject.modes.filter { $0 != .alreadyAvailable }
        let modes: [DeliveryMode?] = subject.modes.isEmpty ? [nil] : asyncModes.map { $0 }
        let watchdog = options.watchdog
        // Subtrees are the valid two-step prefixes under each mode, so every core has work.
        var subtrees: [(mode: DeliveryMode?, prefix: [PagerSchedule.Step])] = []
        for mode in modes {
            let root = await PrefixRun.run([], subject, mode: mode, depth: depth, watchdog: watchdog)
            for first in root.next {
                let visited = await PrefixRun.run([first], subject, mode: mode, depth: depth, watchdog: watchdog)
                if visited.failure != nil || depth < 2 {
                    subtrees.append((mode, [first]))
                } else {
                    subtrees += visited.next.map { (mode, [first, $0]) }
                }
            }
        }
        // Deepened across every subtree and mode at once, so the hit is a shortest schedule.
        let blocks = subtrees
        let search = await DeepeningSearch<PagerSchedule.Step, (invariant: ContractID, message: String?)>.search(
            subtrees: blocks.map(\.prefix), depth: depth, budget: options.budget, parallelism: options.parallelism
        ) { block, prefix, limit in
            await Task.yield()
            let visited = await PrefixRun.run(prefix, subject, mode: blocks[block].mode, depth: limit, watchdog: watchdog)
            return .init(
                failure: visited.failure.map { ($0, visited.message) }, fingerprint: visited.fingerprint,
                next: visited.next)
        }
        return (
            search.explored, search.steps,
            search.hit.map {
                Hit(
                    index: $0.index, steps: $0.steps, invariant: $0.failure.invariant, mode: blocks[$0.subtree].mode,
                    message: $0.failure.message)
            }
        )
    }

    /// Runs one prefix of the exhaustive search on a fresh subject; at the async level inside
    /// the watchdog, so a hang is a finding that says what the kit waited for, never a hung
    /// search.
    private enum PrefixRun {
        /// What running one prefix showed.
        struct Visited: Sendable {
            var failure: ContractID?
            var message: String?
            var fingerprint = 0
            var next: [PagerSchedule.Step] = []
        }

        /// Runs `prefix` on a fresh subject; when every step held, reads the fingerprint and the
        /// steps that can follow.
        static func run(
            _ prefix: [PagerSchedule.Step], _ subject: ExplorationSubject, mode: DeliveryMode?, depth: Int,
            watchdog: Duration
        ) async -> Visited {
            let waits = TimelineRecorder(tier: .required)
            let body: @Sendable () async -> Visited = {
                let execution = await ScheduleExecution.make(subject, mode: mode, waits: mode == nil ? nil : waits)
                await execution.start()
                for step in prefix {
                    do {
                        try await execution.apply(step)
                    } catch {
                        await execution.finish()
                        return Visited(failure: ScheduleExecution.Failure(error).key)
                    }
                }
                let fingerprint = execution.fingerprint
                let next = prefix.count < depth ? ScheduleGenerator.alphabet(for: execution) : []
                // Every state the search reaches is also judged for liveness, as a random
                // schedule's end is: answer what is open, then a trigger must still work. It runs
                // after the fingerprint and the alphabet were read, so it changes neither.
                if mode != .alreadyAvailable {
                    waits.setWaiting(for: "the liveness check after an exhaustive prefix of \(prefix.count) steps")
                    do {
                        try await execution.checkLiveness()
                    } catch {
                        await execution.finish()
                        return Visited(failure: ScheduleExecution.Failure(error).key)
                    }
                }
                await execution.finish()
                return Visited(fingerprint: fingerprint, next: next)
            }
            guard mode != nil else { return await body() }
            do {
                return try await withWatchdog(limit: watchdog, waitingFor: { waits.currentWait }, body)
            } catch {
                return Visited(failure: "watchdog", message: String(describing: error))
            }
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
                let failure = await watchedReplay(candidate, subject, mode: mode, options: options)?.failure
                return failure?.key == hit.invariant && failure?.violation.tier == hit.tier
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
            } else if await watchedReplay(trimmed, subject, mode: mode, options: options)?.failure?.key
                == hit.invariant
            {
                steps = trimmed
            }
        }
        let schedule = PagerSchedule(steps)
        let report = await schedule.run(subject, mode: mode, options: RunOptions(watchdog: options.watchdog))
        let violation = report.outcome.violations.first
        // The contract as the shrunk schedule names it (a finding keyed by its invariant, I1,
        // is named by what caused it there).
        let contract =
            hit.message == nil
            ? await watchedReplay(steps, subject, mode: mode, options: options)?.failure?.invariant ?? hit.invariant
            : hit.invariant
        let kind: ExplorationFinding.Kind =
            hit.invariant == "watchdog" && ContractCatalog.descriptor(contract) == nil
            ? .hang : ExplorationFinding.Kind(key: contract, violation: violation)
        let invariant = kind.descriptor
        var provenance =
            switch options.strategy {
            case .random(let seed): "random, seed \(seed), schedule \(hit.index + 1)"
            case .exhaustive(let depth): "exhaustive, depth \(depth)"
            }
        if let mode { provenance += ", \(mode)" }
        let tier = violation?.tier ?? .required
        return ExplorationFinding(
            kind: kind, invariant: invariant, tier: tier, report: report,
            originalSteps: hit.steps.count, shrunkSteps: steps.count,
            scheduleLiteral: schedule.swiftLiteral(indent: ""),
            regressionTest: schedule.regressionTest(
                typeName: subject.typeName, reference: subject.reference?.name, module: subject.module,
                invariant: invariant,
                provenance: provenance, originalSteps: hit.steps.count,
                strictTier: options.strict ? tier : nil))
    }

    /// What the random search skipped, per block of schedules, so the totals count only the
    /// blocks the result counts (up to the first hit) and never depend on timing.
    final class Tally: Sendable {
        static let blockSize = 16
        private let blocks = Locked<[Int: (unobservable: Int, inapplicable: Int)]>(rawValue: [:])

        func add(_ outcome: ScheduleTrial.Outcome, block: Int) {
            blocks.withLock { blocks in
                var counts = blocks[block] ?? (0, 0)
                counts.unobservable += outcome.unobservableTriggers
                counts.inapplicable += outcome.notApplicable ? 1 : 0
                blocks[block] = counts
            }
        }

        /// The totals over blocks `0 ... last` (every block when `nil`).
        func total(upTo last: Int?) -> (unobservable: Int, inapplicable: Int) {
            blocks.rawValue.filter { last == nil || $0.key <= last! }.values.reduce((0, 0)) {
                ($0.0 + $1.unobservable, $0.1 + $1.inapplicable)
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
