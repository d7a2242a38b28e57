/// The explorer, written once for every ``ScheduleFamily``: a seeded random search or a bounded
/// exhaustive one, then every distinct broken rule shrunk into a finding.
///
/// The result depends only on the seed (or depth) and the budget, never on timing or on how
/// many cores ran the search: blocks are numbered, each rule's first hit by number wins, and
/// what was skipped is counted per block.
package enum ScheduleExplorer {
    /// Explores `family` under `options`.
    /// - Returns: How many schedules ran and every distinct broken rule, each shrunk.
    package static func explore<Family: ScheduleFamily>(
        _ family: Family, options: ExplorationOptions
    ) async -> ExplorationResult {
        let clock = ContinuousClock()
        let start = clock.now
        let search: Search<Family.Step, Family.Context>
        switch options.strategy {
        case .random(let seed):
            search = await randomSearch(family, seed: seed, options: options)
        case .exhaustive(let depth):
            search = await exhaustiveSearch(family, depth: depth, options: options)
        }
        let toFailure = search.hits.isEmpty ? nil : seconds(start.duration(to: clock.now))
        var findings: [ExplorationFinding] = []
        var unreproduced = search.unconfirmed
        for hit in search.hits {
            let provenance =
                switch options.strategy {
                case .random(let seed): "random, seed \(seed), schedule \(hit.index + 1)"
                case .exhaustive(let depth): "exhaustive, depth \(depth)"
                }
            let finding = await reproducedFinding(for: hit, in: family, provenance: provenance, options: options)
            // A failure its own replay does not show again (a hang under a loaded machine) is
            // counted and said, never reported as found.
            guard finding.report.outcome != .passed else {
                unreproduced.append(
                    UnreproducedFailure(
                        schedule: hit.index + 1, failure: hit.failure, steps: hit.steps.count,
                        rerun: "failed again, but its shrunk schedule's replay passed", detail: hit.detail,
                        literal: family.describe(hit.steps, context: hit.context)))
                continue
            }
            // Two hits may shrink to one contract (an I1 whose cause was a repeated answer is P3).
            if !findings.contains(where: { $0.kind == finding.kind && $0.tier == finding.tier }) {
                findings.append(finding)
            }
        }
        return ExplorationResult(
            subject: family.subjectName, strategy: options.strategy, schedules: search.explored,
            steps: search.steps, findings: findings, expected: options.expecting,
            seconds: seconds(start.duration(to: clock.now)), secondsToFailure: toFailure,
            unobservableTriggers: search.unobservable.total, unobservableTriggersByKind: search.unobservable.byKind,
            inapplicableSchedules: search.inapplicable,
            unreproduced: unreproduced, completeDepth: search.completeDepth)
    }

    /// The finding for `hit`, which failed twice in the search: shrunk, or, when the shrunk
    /// schedule's report passes, assembled again and then from the schedule as found.
    ///
    /// On a loaded machine one replay of a real failure can pass (a settling step ends before
    /// the subject's work ran: the official CI once lost `ExpenseReceiptQueue`'s Q9 so, its
    /// three-step schedule passing once after failing twice). A hit that failed twice is not
    /// dropped on one passing replay; only a schedule whose every replay passes is unreproduced.
    private static func reproducedFinding<Family: ScheduleFamily>(
        for hit: ScheduleHit<Family.Step, Family.Context>, in family: Family, provenance: String,
        options: ExplorationOptions
    ) async -> ExplorationFinding {
        let finding = await family.finding(for: hit, provenance: provenance, options: options)
        guard finding.report.outcome == .passed else { return finding }
        let again = await family.finding(for: hit, provenance: provenance, options: options)
        guard again.report.outcome == .passed, options.shrink else { return again }
        var unshrunk = options
        unshrunk.shrink = false
        return await family.finding(for: hit, provenance: provenance, options: unshrunk)
    }

    /// What a search ran and found.
    private struct Search<Step: Sendable, Context: Sendable> {
        var explored: Int
        var steps: Int
        var hits: [ScheduleHit<Step, Context>]
        var unobservable = SkippedTriggers()
        var inapplicable = 0
        /// Failures the same schedule, run again at once, did not show (a hang under a loaded
        /// machine): counted and described, never searched from.
        var unconfirmed: [UnreproducedFailure] = []
        /// Exhaustive: the longest schedule length the search ran in full.
        var completeDepth: Int? = nil
    }

    /// Whether `hit` is a finding under `options` (a recommended rule's is not, with
    /// `requiredOnly`).
    private static func counts<Step, Context>(_ hit: ScheduleHit<Step, Context>, _ options: ExplorationOptions) -> Bool {
        !(options.requiredOnly && hit.failure.tier == .recommended)
    }

    // MARK: - Random

    /// Seeded random schedules in numbered blocks on every core; each broken rule's first
    /// schedule by number wins.
    private static func randomSearch<Family: ScheduleFamily>(
        _ family: Family, seed: UInt64, options: ExplorationOptions
    ) async -> Search<Family.Step, Family.Context> {
        let blockSize = family.blockSize
        let budget = options.budget
        let tally = Tally()
        let search = await ParallelSearch.search(
            blocks: (budget + blockSize - 1) / blockSize, options: options, key: \.failure
        ) { block -> ParallelSearch.HitsBlock<ScheduleHit<Family.Step, Family.Context>> in
            var explored = 0
            var stepCount = 0
            var hits: [ScheduleHit<Family.Step, Family.Context>] = []
            var failures: Set<ScheduleFailure> = []
            var turns = CooperativeTurns()
            for index in (block * blockSize)..<min(budget, (block + 1) * blockSize) {
                explored += 1
                let outcome = await family.trial(index, seed: seed, options: options)
                stepCount += outcome.steps
                tally.add(outcome.unobservableTriggers, notApplicable: outcome.notApplicable, block: block)
                if let hit = outcome.hit, counts(hit, options), !failures.contains(hit.failure) {
                    // A failure counts only if the same schedule, run again, fails the same
                    // way: one that a loaded machine caused (a step that ended on the
                    // watchdog) must neither stand for its rule nor stop the search.
                    let again = await family.trial(index, seed: seed, options: options).hit?.failure
                    guard again == hit.failure else {
                        tally.addUnconfirmed(
                            UnreproducedFailure(
                                schedule: index + 1, failure: hit.failure, steps: hit.steps.count,
                                rerun: again.map { "failed as \($0) instead" } ?? "passed", detail: hit.detail,
                                literal: family.describe(hit.steps, context: hit.context)),
                            block: block)
                        await turns.take()
                        continue
                    }
                    failures.insert(hit.failure)
                    hits.append(hit)
                    if options.stopsAtFirstFinding { break }
                }
                // A model-level schedule never suspends: give other work on the cooperative
                // pool (other tests, their watchdogs) a turn between schedules, at least once a
                // millisecond. (Yielding every 8 schedules instead was measured: two watchdog
                // tests then starved under the thread sanitizer, where 8 schedules take long.)
                await turns.take()
            }
            return .init(explored: explored, steps: stepCount, hits: hits)
        }
        // Stopped at the first finding, blocks after its own may or may not have run: count
        // only those up to it.
        let last = options.stopsAtFirstFinding ? search.hits.first.map { $0.index / blockSize } : nil
        let skipped = tally.total(upTo: last)
        return Search(
            explored: search.explored, steps: search.steps, hits: search.hits,
            unobservable: skipped.unobservable, inapplicable: skipped.inapplicable,
            unconfirmed: skipped.unconfirmed)
    }

    /// What the random search skipped, per block, so the totals never depend on which worker
    /// ran which block.
    private final class Tally: Sendable {
        struct Counts {
            var unobservable = SkippedTriggers()
            var inapplicable = 0
            var unconfirmed: [UnreproducedFailure] = []
        }
        private let blocks = Locked<[Int: Counts]>(rawValue: [:])

        func add(_ unobservable: SkippedTriggers, notApplicable: Bool, block: Int) {
            blocks.withLock { blocks in
                blocks[block, default: Counts()].unobservable = blocks[block, default: Counts()].unobservable + unobservable
                blocks[block, default: Counts()].inapplicable += notApplicable ? 1 : 0
            }
        }

        func addUnconfirmed(_ failure: UnreproducedFailure, block: Int) {
            blocks.withLock { $0[block, default: Counts()].unconfirmed.append(failure) }
        }

        /// The totals over blocks `0 ... last` (every block when `nil`), unconfirmed failures in
        /// schedule order.
        func total(upTo last: Int?) -> Counts {
            blocks.rawValue.filter { last == nil || $0.key <= last! }.values.reduce(into: Counts()) { total, block in
                total.unobservable = total.unobservable + block.unobservable
                total.inapplicable += block.inapplicable
                total.unconfirmed += block.unconfirmed
            }
        }
    }

    // MARK: - Bounded exhaustive

    /// Every schedule up to `depth` steps, under each of the family's contexts: the valid
    /// two-step prefixes are the subtrees shared out to every core, deepened together so the
    /// hit is a shortest failing schedule.
    private static func exhaustiveSearch<Family: ScheduleFamily>(
        _ family: Family, depth: Int, options: ExplorationOptions
    ) async -> Search<Family.Step, Family.Context> {
        var subtrees: [(context: Family.Context, prefix: [Family.Step])] = []
        for context in family.exhaustiveContexts {
            let root = await family.visit([], context: context, depth: depth, options: options)
            if let failure = root.failure {
                // The start itself failed (a launch from fresh storage, a first snapshot):
                // report it, never an empty search.
                let hit = ScheduleHit<Family.Step, Family.Context>(index: 0, steps: [], failure: failure, context: context)
                return Search(explored: 1, steps: 0, hits: counts(hit, options) ? [hit] : [])
            }
            for first in root.next {
                let visited = await family.visit([first], context: context, depth: depth, options: options)
                if visited.failure != nil || depth < 2 {
                    subtrees.append((context, [first]))
                } else {
                    subtrees += visited.next.map { (context, [first, $0]) }
                }
            }
        }
        let blocks = subtrees
        let search = await DeepeningSearch<Family.Step, ScheduleFailure>.search(
            subtrees: blocks.map(\.prefix), depth: depth, budget: options.budget, parallelism: options.parallelism
        ) { block, prefix, limit in
            await family.visit(prefix, context: blocks[block].context, depth: limit, options: options)
        }
        let hit = search.hit.map {
            ScheduleHit(index: $0.index, steps: $0.steps, failure: $0.failure, context: blocks[$0.subtree].context)
        }
        return Search(
            explored: search.explored, steps: search.steps, hits: hit.map { [$0] }?.filter { counts($0, options) } ?? [],
            completeDepth: search.completeDepth)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
