import ConformanceKit

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

    static func explore(_ subject: ExplorationSubject, options: ExplorationOptions) async -> ExplorationResult {
        let clock = ContinuousClock()
        let start = clock.now
        let search: (explored: Int, steps: Int, hit: Hit?) =
            switch options.strategy {
            case .random(let seed): await randomSearch(subject, seed: seed, options: options)
            case .exhaustive(let depth): await exhaustiveSearch(subject, depth: depth, options: options)
            }
        let toFailure = search.hit.map { _ in seconds(start.duration(to: clock.now)) }
        var finding: ExplorationFinding?
        if let hit = search.hit {
            finding = await shrinkAndReport(hit, subject, options: options)
        }
        return ExplorationResult(
            subject: subject.name, strategy: options.strategy,
            schedules: search.explored, steps: search.steps, finding: finding,
            seconds: seconds(start.duration(to: clock.now)), secondsToFailure: toFailure)
    }

    // MARK: - Strategies

    private static func randomSearch(
        _ subject: ExplorationSubject, seed: UInt64, options: ExplorationOptions
    ) async -> (explored: Int, steps: Int, hit: Hit?) {
        let blockSize = 16
        let budget = options.budget
        let maxSteps = options.maxSteps
        return await ParallelSearch.firstHit(
            blocks: (budget + blockSize - 1) / blockSize, parallelism: options.parallelism
        ) { block in
            var explored = 0
            var stepCount = 0
            for index in (block * blockSize)..<min(budget, (block + 1) * blockSize) {
                explored += 1
                var random = SplitMix64.forSchedule(index, of: seed)
                let execution = await ScheduleExecution.make(subject)
                await execution.start()
                var steps: [PagerSchedule.Step] = []
                var hit: Hit?
                for _ in 0..<maxSteps {
                    let step = ScheduleGenerator.randomStep(&random, for: execution)
                    steps.append(step)
                    stepCount += 1
                    do {
                        try await execution.apply(step)
                    } catch {
                        hit = Hit(index: index, steps: steps, invariant: ScheduleExecution.Failure(error).invariant)
                        break
                    }
                }
                await execution.finish()
                if let hit { return .init(explored: explored, steps: stepCount, hit: hit) }
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
        if options.shrink {
            func stillFails(_ candidate: [PagerSchedule.Step]) async -> Bool {
                await PagerSchedule.replay(candidate, against: subject).failure?.invariant == hit.invariant
            }
            // Fewest steps first: drop one step at a time, renumbering the answers after it
            // (plain delta debugging cannot drop a trigger without breaking every later answer).
            var shrinking = true
            while shrinking {
                shrinking = false
                let started = await PagerSchedule.replay(steps, against: subject).started
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
        let replay = await PagerSchedule.replay(steps, against: subject)
        let end = replay.failingIndex.map { $0 + 1 } ?? steps.count
        steps = zip(steps.prefix(end), replay.applied).filter(\.1).map(\.0)
        let schedule = PagerSchedule(steps)
        let report = await schedule.run(subject, options: RunOptions(watchdog: options.watchdog))
        let violation = report.outcome.violations.first
        let invariant =
            ContractCatalog.descriptor(hit.invariant)
            ?? ContractDescriptor(id: hit.invariant, name: "adapter error", rule: "The adapter must complete every step.")
        let provenance =
            switch options.strategy {
            case .random(let seed): "random, seed \(seed), schedule \(hit.index + 1)"
            case .exhaustive(let depth): "exhaustive, depth \(depth)"
            }
        return ExplorationFinding(
            invariant: invariant, tier: violation?.tier ?? .required, report: report,
            originalSteps: hit.steps.count, shrunkSteps: steps.count,
            scheduleLiteral: schedule.swiftLiteral(indent: ""),
            regressionTest: schedule.regressionTest(
                typeName: subject.typeName, reference: subject.reference?.name, module: subject.module,
                invariant: invariant,
                provenance: provenance, originalSteps: hit.steps.count))
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
