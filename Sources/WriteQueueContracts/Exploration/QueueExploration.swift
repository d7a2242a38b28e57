import ConformanceKit

/// Explores a write queue through generated schedules — submits (new, copied and coalescable
/// updates), sending passes started together, answers of every kind (success, unknown outcomes,
/// conflicts, client errors) to any open send in any order, the clock, crashes and relaunches —
/// checks the rules after every step, and shrinks each distinct broken rule.
///
/// ```swift
/// let result = await QueueExploration.explore(MyQueueAdapter.self, options: ExplorationOptions(budget: 300))
/// ```
///
/// The rules are the invariants I7–I9 and every Q rule a single state of the run can break,
/// judged only where no correct queue could differ: Q1 (stored with its key once submit
/// returns), Q2 (a waiting task keeps its identity), Q4 and Q9 (no resend after a terminal
/// answer), Q6 (no two tasks share a key), Q7 (no two requests for one task in flight from one
/// instant), Q8 (a retry within the declared cap), Q10 (no sensitive value in diagnostics) and
/// Q12 (a merged update keeps the newest body). The explorer is not told which rule a queue
/// breaks. Rules about a whole history (Q3's replay, Q8's growth to the cap, Q11 on a relaunch
/// that restores) stay with the fixed Q contracts.
public enum QueueExploration {
    /// Explores the queue behind `adapter`.
    /// - Parameters:
    ///   - adapter: The queue's adapter; each schedule gets fresh storage.
    ///   - options: Strategy (random from a seed, or bounded exhaustive to a depth), budget,
    ///     parallelism, watchdog.
    /// - Returns: How many schedules ran and every distinct broken rule, each shrunk.
    public static func explore<A: WriteQueueAdapter>(
        _ adapter: A.Type, options: ExplorationOptions = ExplorationOptions(budget: 300)
    ) async -> ExplorationResult {
        let clock = ContinuousClock()
        let start = clock.now
        let search: (explored: Int, steps: Int, hits: [QueueSearchHit])
        let provenance: String
        var unobservable = 0
        switch options.strategy {
        case .random(let seed):
            let random = await randomSearch(A.self, seed: seed, options: options)
            search = (random.explored, random.steps, random.hits)
            unobservable = random.unobservableTriggers
            provenance = "random, seed \(seed)"
        case .exhaustive(let depth):
            let first = await QueueExhaustiveSearch.search(A.self, depth: depth, options: options)
            search = (first.explored, first.steps, first.hit.map { [$0] }?.filter { counts($0, options) } ?? [])
            provenance = "exhaustive, depth \(depth)"
        }
        let toFailure = search.hits.isEmpty ? nil : seconds(start.duration(to: clock.now))
        var findings: [ExplorationFinding] = []
        var unreproduced = 0
        for hit in search.hits {
            let finding = await shrinkAndReport(hit, A.self, provenance: provenance, options: options)
            // A failure its own replay does not show again is counted and said, never reported as found.
            guard finding.report.outcome != .passed else {
                unreproduced += 1
                continue
            }
            findings.append(finding)
        }
        return ExplorationResult(
            subject: String(describing: A.self), strategy: options.strategy, schedules: search.explored,
            steps: search.steps, findings: findings, expected: options.expecting,
            seconds: seconds(start.duration(to: clock.now)), secondsToFailure: toFailure,
            unobservableTriggers: unobservable, unreproducedFailures: unreproduced)
    }

    /// Whether `hit` is a finding under `options` (a recommended rule's is not, with
    /// `requiredOnly`).
    private static func counts(_ hit: QueueSearchHit, _ options: ExplorationOptions) -> Bool {
        !(options.requiredOnly && ContractCatalog.descriptor(hit.invariant)?.tier == .recommended)
    }

    /// Shrinks one failing schedule and builds its finding: the report and the regression test.
    private static func shrinkAndReport<A: WriteQueueAdapter>(
        _ hit: QueueSearchHit, _ adapter: A.Type, provenance: String, options: ExplorationOptions
    ) async -> ExplorationFinding {
        let watchdog = options.watchdog
        var steps = hit.steps
        if options.shrink {
            // Shrink over steps that name their operations by the submit that made them, so
            // removing an unrelated step (which renumbers later sends and operations) keeps
            // each answer on its request.
            let found = await QueueSchedule(steps).replay(against: A.self, watchdog: watchdog)
            let shrunk = await ScheduleShrinker.shrink(
                QueueShrinkStep.steps(of: found), simpler: QueueShrinkStep.simpler, maxReplays: 600
            ) { candidate in
                await QueueShrinkStep.replay(candidate, against: A.self, watchdog: watchdog).invariant == hit.invariant
            }.steps
            let replayed = await QueueShrinkStep.replay(shrunk, against: A.self, watchdog: watchdog)
            // Keep the shrunk schedule only if it fails the same way as printed.
            if await QueueSchedule(replayed.steps).replay(against: A.self, watchdog: watchdog).invariant == hit.invariant {
                steps = replayed.steps
            }
        }
        let replay = await QueueSchedule(steps).replay(against: A.self, watchdog: watchdog)
        let end = replay.failingIndex.map { $0 + 1 } ?? steps.count
        steps = zip(steps.prefix(end), replay.applied).filter(\.1).map(\.0)
        let schedule = QueueSchedule(steps)
        let report = await schedule.run(against: A.self, options: RunOptions(watchdog: watchdog))
        let kind = ExplorationFinding.Kind(key: hit.invariant, violation: report.outcome.violations.first)
        let invariant = kind.descriptor
        let name = String(describing: A.self)
        return ExplorationFinding(
            kind: kind, invariant: invariant, tier: invariant.tier, report: report, originalSteps: hit.steps.count,
            shrunkSteps: steps.count, scheduleLiteral: schedule.swiftLiteral(indent: ""),
            regressionTest: schedule.regressionTest(
                typeName: name,
                module: String(reflecting: A.self).split(separator: ".").first.map(String.init) ?? name,
                invariant: invariant, provenance: "\(provenance), schedule \(hit.index + 1)",
                originalSteps: hit.steps.count, strictTier: options.strict ? invariant.tier : nil))
    }

    /// Seeded random schedules in blocks of eight, on every core; each rule's first failure by
    /// schedule number wins, so the result depends only on the seed.
    private static func randomSearch<A: WriteQueueAdapter>(
        _ adapter: A.Type, seed: UInt64, options: ExplorationOptions
    ) async -> (explored: Int, steps: Int, hits: [QueueSearchHit], unobservableTriggers: Int) {
        let blockSize = 8
        let budget = options.budget
        let maxSteps = options.maxSteps
        let watchdog = options.watchdog
        // Per block, so the total is the same whichever worker ran which block.
        let unobservable = Locked(rawValue: [Int: Int]())
        let search = await ParallelSearch.search(
            blocks: (budget + blockSize - 1) / blockSize, options: options, key: \.invariant
        ) { block -> ParallelSearch.HitsBlock<QueueSearchHit> in
            var explored = 0
            var stepCount = 0
            var hits: [QueueSearchHit] = []
            for index in (block * blockSize)..<min(budget, (block + 1) * blockSize) {
                explored += 1
                // Advanced by the replay's body only, which may outlive a watchdog that gave up.
                let generator = Locked(rawValue: QueueScheduleGenerator(seed: seed, index: index))
                let replay = await QueueSchedule.replay(against: A.self, watchdog: watchdog, steps: maxSteps) {
                    execution, _ in generator.withLock { $0.next(for: execution) }
                }
                stepCount += replay.applied.count
                unobservable.withLock { $0[block, default: 0] += replay.unobservableTriggers }
                if let invariant = replay.invariant, !hits.contains(where: { $0.invariant == invariant }) {
                    let hit = QueueSearchHit(index: index, steps: replay.steps, invariant: invariant)
                    if counts(hit, options) { hits.append(hit) }
                    if options.stopsAtFirstFinding, !hits.isEmpty { break }
                }
            }
            return .init(explored: explored, steps: stepCount, hits: hits)
        }
        // Stopped at the first finding, blocks after its own may or may not have run: count
        // only those up to it.
        let last = options.stopsAtFirstFinding ? search.hits.first.map { $0.index / blockSize } : nil
        let skipped = unobservable.rawValue.filter { last == nil || $0.key <= last! }.values.reduce(0, +)
        return (search.explored, search.steps, search.hits, skipped)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
