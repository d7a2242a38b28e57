import ConformanceKit
import Foundation

extension QueueSchedule {
    /// The descriptor a queue schedule's report names: the three queue invariants, and the Q
    /// rules one state of the run can break (each finding names its own rule).
    package static let invariants = ContractDescriptor(
        id: "I7–I9", name: "queue exploration rules",
        rule: ContractCatalog.invariants.suffix(3).map { "\($0.id) \($0.name)." }.joined(separator: " ")
            + " And, after every step, Q1, Q2, Q4, Q6–Q10 and Q12 where one state can break them.")

    /// Replays this schedule against a queue launched from fresh storage by `adapter` and
    /// checks I7–I9 and the Q rules one state can break after every step.
    /// - Parameters:
    ///   - adapter: The queue's adapter.
    ///   - options: The watchdog limit.
    /// - Returns: Passed, or failed with the first invariant violation and the transcript.
    public func run<A: WriteQueueAdapter>(against adapter: A.Type, options: RunOptions = RunOptions()) async
        -> ContractReport
    {
        await replay(against: A.self, watchdog: options.watchdog).report
    }

    /// What a replay found.
    struct Replay: Sendable {
        var report: ContractReport
        /// What broke, if anything: a rule, the adapter, or a step that never settled.
        var failure: ScheduleFailure?
        var failingIndex: Int?
        /// The steps run, in order (for a generated schedule, the steps the generator chose).
        var steps: [Step]
        /// For each step, whether it applied (`false`: skipped, such as an answer to a send
        /// that was not open).
        var applied: [Bool]
        /// For each answer, the operation and attempt of the send it answered.
        var targets: [(operation: Int, attempt: Int)?]
        /// Triggers skipped because the kit could not have seen them settle.
        var unobservableTriggers = SkippedTriggers()
    }

    func replay<A: WriteQueueAdapter>(against adapter: A.Type, watchdog: Duration) async -> Replay {
        await Self.replay(against: A.self, watchdog: watchdog, steps: steps.count) { _, index in steps[index] }
    }

    /// Runs up to `count` steps against a queue launched from fresh storage, each chosen by
    /// `nextStep` from the execution's state, checking the rules after every step; then, when
    /// every step held, lets `observe` read the final state (the exhaustive search's alphabet
    /// and fingerprint).
    static func replay<A: WriteQueueAdapter>(
        against adapter: A.Type, watchdog: Duration, steps count: Int,
        observe: (@Sendable (QueueScheduleExecution<A>) async throws -> Void)? = nil,
        nextStep: @escaping @Sendable (QueueScheduleExecution<A>, Int) -> Step
    ) async -> Replay {
        let outcome = Locked(rawValue: ReplayOutcome())
        let report = await ContractRun.execute(
            invariants, subject: String(describing: A.self), watchdog: watchdog
        ) { recorder in
            let harness = try QueueHarness<A>(recorder: recorder, exploring: true)
            let execution = QueueScheduleExecution(harness: harness)
            do {
                try await harness.launch()
                for index in 0..<count {
                    let step = nextStep(execution, index)
                    var target: (operation: Int, attempt: Int)?
                    switch step {
                    case .answer(let send, _):
                        target = execution.target(ofSend: send)
                    case .answerAttempt(let attempt, let operation, _):
                        target = execution.openSend(operation: operation, preferring: attempt).flatMap(execution.target(ofSend:))
                    default:
                        break
                    }
                    outcome.withLock { outcome in
                        outcome.index = index
                        outcome.steps.append(step)
                        outcome.targets.append(target)
                        outcome.applied.append(true)
                    }
                    let applied = try await execution.apply(step)
                    let unobservable = execution.unobservableTriggers
                    outcome.withLock {
                        $0.applied[index] = applied
                        $0.unobservableTriggers = unobservable
                    }
                }
                outcome.withLock { $0.index = nil }
                if let observe {
                    try await observe(execution)
                } else {
                    // The exhaustive search observes the state the steps left (its fingerprint);
                    // a random schedule ends with the liveness check.
                    try await execution.checkLiveness()
                }
            } catch let failure as QueueScheduleExecution<A>.Failure {
                outcome.withLock { $0.invariant = failure.invariant }
                await harness.finish()
                throw recorder.fail(failure.violation)
            } catch {
                await harness.finish()
                throw error
            }
            outcome.withLock { $0.index = nil }
            await harness.finish()
        }
        // A copy: when the watchdog gave up, the timeline may still be running and writing.
        let seen = outcome.rawValue
        let failure: ScheduleFailure?
        if let rule = seen.invariant {
            failure = .rule(rule, tier: ContractCatalog.descriptor(rule)?.tier ?? .required)
        } else if case .failed(let violations) = report.outcome {
            failure = violations.first?.kind == .watchdog ? .hang : .adapterError
        } else {
            failure = nil
        }
        // Named by the contract whose rule broke (its rule text, not the list of rules checked).
        let named = seen.invariant.flatMap(ContractCatalog.descriptor).map(report.named) ?? report
        return Replay(
            report: named, failure: failure, failingIndex: failure == nil ? nil : seen.index,
            steps: seen.steps, applied: seen.applied, targets: seen.targets,
            unobservableTriggers: seen.unobservableTriggers)
    }
}

/// What a replay's body saw, read after the run ends.
private struct ReplayOutcome {
    var invariant: ContractID?
    var index: Int?
    var steps: [QueueSchedule.Step] = []
    var applied: [Bool] = []
    var targets: [(operation: Int, attempt: Int)?] = []
    var unobservableTriggers = SkippedTriggers()
}
