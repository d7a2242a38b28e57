import ConformanceKit

/// Explores a write queue through generated schedules — submits, sending passes, answers of
/// every kind to any open send in any order, the clock, crashes and relaunches — checks I7–I9
/// after every step, and shrinks the first failure.
///
/// ```swift
/// let result = await QueueExploration.explore(MyQueueAdapter.self, options: ExplorationOptions(budget: 300))
/// ```
///
/// Only rules the invariants can express are found this way: a queue that sends with a new key
/// (I7), leaves two records for one operation (I8) or drops a task before a success (I9). The
/// Q contracts remain the full check.
public enum QueueExploration {
    /// Explores the queue behind `adapter`.
    /// - Parameters:
    ///   - adapter: The queue's adapter; each schedule gets fresh storage.
    ///   - options: Random strategy and budget (exhaustive is not offered for queues).
    /// - Returns: How many schedules ran and the first failure, shrunk, if any.
    public static func explore<A: WriteQueueAdapter>(
        _ adapter: A.Type, options: ExplorationOptions = ExplorationOptions(budget: 300)
    ) async -> ExplorationResult {
        let clock = ContinuousClock()
        let start = clock.now
        let seed: UInt64 =
            switch options.strategy {
            case .random(let seed): seed
            case .exhaustive: 1
            }
        let blockSize = 8
        let budget = options.budget
        let maxSteps = options.maxSteps
        let watchdog = options.watchdog
        let search = await ParallelSearch.firstHit(
            blocks: (budget + blockSize - 1) / blockSize, parallelism: options.parallelism
        ) { block -> ParallelSearch.Block<(index: Int, steps: [QueueSchedule.Step], invariant: ContractID)> in
            var explored = 0
            var stepCount = 0
            for index in (block * blockSize)..<min(budget, (block + 1) * blockSize) {
                explored += 1
                let steps = randomSchedule(seed: seed, index: index, length: maxSteps)
                let replay = await QueueSchedule(steps).replay(against: A.self, watchdog: watchdog)
                stepCount += replay.applied.count
                if let invariant = replay.invariant {
                    return .init(
                        explored: explored, steps: stepCount,
                        hit: (index, Array(steps.prefix((replay.failingIndex ?? steps.count - 1) + 1)), invariant))
                }
            }
            return .init(explored: explored, steps: stepCount, hit: nil)
        }
        let toFailure = search.hit.map { _ in seconds(start.duration(to: clock.now)) }
        var finding: ExplorationFinding?
        if let hit = search.hit {
            var steps = hit.steps
            if options.shrink {
                steps = await ScheduleShrinker.shrink(steps, simpler: simpler, maxReplays: 400) { candidate in
                    await QueueSchedule(candidate).replay(against: A.self, watchdog: watchdog).invariant == hit.invariant
                }.steps
            }
            let replay = await QueueSchedule(steps).replay(against: A.self, watchdog: watchdog)
            let end = replay.failingIndex.map { $0 + 1 } ?? steps.count
            steps = zip(steps.prefix(end), replay.applied).filter(\.1).map(\.0)
            let schedule = QueueSchedule(steps)
            let report = await schedule.run(against: A.self, options: RunOptions(watchdog: watchdog))
            let invariant =
                ContractCatalog.descriptor(hit.invariant)
                ?? ContractDescriptor(id: hit.invariant, name: "adapter error", rule: "The adapter must complete every step.")
            let name = String(describing: A.self)
            finding = ExplorationFinding(
                invariant: invariant, tier: .required, report: report, originalSteps: hit.steps.count,
                shrunkSteps: steps.count, scheduleLiteral: schedule.swiftLiteral(indent: ""),
                regressionTest: schedule.regressionTest(
                    typeName: name,
                    module: String(reflecting: A.self).split(separator: ".").first.map(String.init) ?? name,
                    invariant: invariant, provenance: "random, seed \(seed), schedule \(hit.index + 1)",
                    originalSteps: hit.steps.count))
        }
        return ExplorationResult(
            subject: String(describing: A.self), strategy: .random(seed: seed), schedules: search.explored,
            steps: search.steps, finding: finding, seconds: seconds(start.duration(to: clock.now)),
            secondsToFailure: toFailure)
    }

    /// A random schedule: submits (up to three operations), sending passes, answers to send
    /// numbers that are likely open, clock advances and the occasional crash.
    static func randomSchedule(seed: UInt64, index: Int, length: Int) -> [QueueSchedule.Step] {
        var random = SplitMix64.forSchedule(index, of: seed)
        var steps: [QueueSchedule.Step] = []
        var submitted = 0
        var sendsGuess = 0
        let replies: [QueueSchedule.Reply] = [
            .success, .success, .success, .commitThen503, .commitThenDrop, .status(503), .connectionLost,
            .timeout, .status(500),
        ]
        for _ in 0..<length {
            switch random.below(10) {
            case 0, 1:
                if submitted < 3 {
                    submitted += 1
                    steps.append(.submit)
                } else {
                    steps.append(.sendingPass)
                }
            case 2, 3:
                steps.append(.sendingPass)
                sendsGuess += 1
            case 4, 5, 6, 7:
                let send = 1 + random.below(max(1, sendsGuess + 1))
                steps.append(.answer(send: send, replies[random.below(replies.count)]))
            case 8:
                steps.append(.advanceClock)
            default:
                steps.append(random.chance(1, in: 2) ? .crash : .sendingPass)
            }
        }
        return steps
    }

    static func simpler(_ step: QueueSchedule.Step) -> [QueueSchedule.Step] {
        if case .answer(let send, let reply) = step, reply != .status(503) {
            return [.answer(send: send, .status(503))]
        }
        return []
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
