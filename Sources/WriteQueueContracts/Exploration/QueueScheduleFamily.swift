import ConformanceKit

/// Write queues as the shared explorer drives them: every schedule on fresh storage inside the
/// watchdog, steps chosen from the execution's state, and a shrinker that names operations by
/// the submit that made them.
struct QueueScheduleFamily<A: WriteQueueAdapter>: ScheduleFamily {
    typealias Hit = ScheduleHit<QueueSchedule.Step, Void>

    var subjectName: String { String(describing: A.self) }
    var blockSize: Int { 8 }
    var exhaustiveContexts: [Void] { [()] }

    func describe(_ steps: [QueueSchedule.Step], context: Void) -> String {
        "[" + steps.map(\.swiftCode).joined(separator: ", ") + "]"
    }

    func trial(_ index: Int, seed: UInt64, options: ExplorationOptions)
        async -> ScheduleTrialOutcome<QueueSchedule.Step, Void>
    {
        // Advanced by the replay's body only, which may outlive a watchdog that gave up.
        let generator = Locked(rawValue: QueueScheduleGenerator(seed: seed, index: index))
        let replay = await QueueSchedule.replay(against: A.self, watchdog: options.watchdog, steps: options.maxSteps) {
            execution, _ in generator.withLock { $0.next(for: execution) }
        }
        return ScheduleTrialOutcome(
            steps: replay.applied.count,
            hit: replay.failure.map {
                Hit(
                    index: index, steps: replay.steps, failure: $0, context: (),
                    detail: replay.report.outcome.violations.first.map(\.summary))
            },
            unobservableTriggers: replay.unobservableTriggers)
    }

    /// Runs `prefix` on fresh storage (a queue cannot be copied) and reads, when every step
    /// held, the steps that can follow (`QueueScheduleExecution.alphabet`) and the fingerprint.
    func visit(_ prefix: [QueueSchedule.Step], context: Void, depth: Int, options: ExplorationOptions) async
        -> DeepeningSearch<QueueSchedule.Step, ScheduleFailure>.Visit
    {
        let seen = Locked(rawValue: (next: [QueueSchedule.Step](), fingerprint: 0))
        let crashes = prefix.filter { $0 == .crash }.count
        let replay = await QueueSchedule.replay(
            against: A.self, watchdog: options.watchdog, steps: prefix.count,
            observe: { execution in
                let tasks = try await execution.harness.tasks()
                let observed = (next: execution.alphabet(crashes: crashes), fingerprint: execution.fingerprint(tasks: tasks))
                seen.withLock { $0 = observed }
            }
        ) { _, index in prefix[index] }
        // What the replay's body saw after the last step (a timeline the watchdog gave up on
        // may still be running, so it is read under the lock).
        let observed = seen.rawValue
        return .init(failure: replay.failure, fingerprint: observed.fingerprint, next: observed.next)
    }

    /// Shrinks one failing schedule and builds its finding: the report and the regression test.
    func finding(for hit: Hit, provenance: String, options: ExplorationOptions) async -> ExplorationFinding {
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
                await QueueShrinkStep.replay(candidate, against: A.self, watchdog: watchdog).failure == hit.failure
            }.steps
            let replayed = await QueueShrinkStep.replay(shrunk, against: A.self, watchdog: watchdog)
            // Keep the shrunk schedule only if it fails the same way as printed.
            if await QueueSchedule(replayed.steps).replay(against: A.self, watchdog: watchdog).failure == hit.failure {
                steps = replayed.steps
            }
        }
        let concrete = await QueueSchedule(steps).replay(against: A.self, watchdog: watchdog)
        let end = concrete.failingIndex.map { $0 + 1 } ?? steps.count
        // Printed with each answer named by operation and attempt: a queue that sends several
        // tasks at once may number its sends differently on the next run (the thirty-second
        // trial's outbox did in 1 of 10 replays), its operations' attempts never.
        steps = steps.indices.prefix(min(end, concrete.applied.count)).filter { concrete.applied[$0] }.map { index in
            guard case .answer(_, let reply) = steps[index], let target = concrete.targets[index] else { return steps[index] }
            return .answerAttempt(target.attempt, ofOperation: target.operation, reply)
        }
        let schedule = QueueSchedule(steps)
        let replay = await schedule.replay(against: A.self, watchdog: watchdog)
        let report = await schedule.run(against: A.self, options: RunOptions(watchdog: watchdog))
        // Named as the printed schedule fails: a hit whose shrunk replay breaks another rule
        // first is that rule's finding, so the title, the regression test and the report agree
        // (the thirty-second trial's finding titled Q2 whose report said Q3).
        let kind = ExplorationFinding.Kind(hit.failure, contract: replay.failure?.rule)
        let invariant = kind.descriptor
        let name = String(describing: A.self)
        return ExplorationFinding(
            kind: kind, invariant: invariant, tier: invariant.tier, report: report, originalSteps: hit.steps.count,
            shrunkSteps: steps.count, scheduleLiteral: schedule.swiftLiteral(indent: ""),
            regressionTest: schedule.regressionTest(
                typeName: name,
                module: String(reflecting: A.self).split(separator: ".").first.map(String.init) ?? name,
                invariant: invariant, provenance: provenance,
                originalSteps: hit.steps.count, strictTier: options.strict ? invariant.tier : nil))
    }
}
