import ConformanceKit

/// A queue schedule step as the shrinker sees it: operations are named by the submit step that
/// made them and sends by operation and attempt, never by number, so removing an unrelated
/// step (which renumbers later operations and sends) keeps every answer on its request. When
/// that attempt is not open in a shorter candidate, the answer goes to the operation's oldest
/// open request.
struct QueueShrinkStep: Hashable, Sendable {
    /// What the step does.
    enum Action: Hashable, Sendable {
        /// A step that names no operation or send.
        case step(QueueSchedule.Step)
        /// A copy of the operation made by the submit step `submit`.
        case copy(submit: Int)
        /// An answer to attempt `attempt` of the operation made by the submit step `submit`.
        case answer(submit: Int, attempt: Int, QueueSchedule.Reply)
    }

    /// The step's position in the schedule as found: its name, stable while others go.
    let origin: Int
    let action: Action

    /// The steps of a replay, with operations and sends named by origin.
    static func steps(of replay: QueueSchedule.Replay) -> [QueueShrinkStep] {
        var submitOfOperation: [Int: Int] = [:]
        var result: [QueueShrinkStep] = []
        for (index, step) in replay.steps.enumerated() {
            let makesOperation =
                switch step {
                case .submit, .update, .submitCopy: true
                default: false
                }
            if makesOperation && replay.applied[index] { submitOfOperation[submitOfOperation.count + 1] = index }
            let action: Action
            switch step {
            case .submitCopy(let original):
                action = submitOfOperation[original].map { .copy(submit: $0) } ?? .step(step)
            case .answer(_, let reply):
                if let target = replay.targets[index], let submit = submitOfOperation[target.operation] {
                    action = .answer(submit: submit, attempt: target.attempt, reply)
                } else {
                    action = .step(step)
                }
            default:
                action = .step(step)
            }
            result.append(QueueShrinkStep(origin: index, action: action))
        }
        return result
    }

    /// Simpler variants, simplest first: a plain submit; a success, then a 503.
    static func simpler(_ step: QueueShrinkStep) -> [QueueShrinkStep] {
        let actions: [Action] =
            switch step.action {
            case .copy, .step(.update): [.step(.submit)]
            case .answer(_, _, .success): []
            case .answer(let submit, let attempt, .status(503)): [.answer(submit: submit, attempt: attempt, .success)]
            case .answer(let submit, let attempt, _):
                [.answer(submit: submit, attempt: attempt, .success), .answer(submit: submit, attempt: attempt, .status(503))]
            case .step: []
            }
        return actions.map { QueueShrinkStep(origin: step.origin, action: $0) }
    }

    /// Replays shrinker steps, resolving each name to the operation or send it stands for; a
    /// step whose operation or send does not exist in this run is skipped.
    static func replay<A: WriteQueueAdapter>(
        _ steps: [QueueShrinkStep], against adapter: A.Type, watchdog: Duration
    ) async -> QueueSchedule.Replay {
        let names = Locked(rawValue: OperationNames())
        return await QueueSchedule.replay(against: A.self, watchdog: watchdog, steps: steps.count) { execution, index in
            names.withLock { names in
                names.settle(submitted: execution.submittedCount)
                let step = steps[index]
                switch step.action {
                case .step(let concrete):
                    if concrete == .submit || concrete == .update {
                        names.expect(origin: step.origin, as: execution.submittedCount + 1)
                    }
                    return concrete
                case .copy(let submit):
                    names.expect(origin: step.origin, as: execution.submittedCount + 1)
                    return .submitCopy(of: names.operation(madeBy: submit) ?? 0)
                case .answer(let submit, let attempt, let reply):
                    let send = names.operation(madeBy: submit).flatMap { execution.openSend(operation: $0, preferring: attempt) }
                    return .answer(send: send ?? 0, reply)
                }
            }
        }
    }
}

/// Which operation each submit step made in one replay, read and written by its body only.
private struct OperationNames {
    private var made: [Int: Int] = [:]
    private var expected: (origin: Int, operation: Int)?

    mutating func expect(origin: Int, as operation: Int) {
        expected = (origin, operation)
    }

    /// Confirms the expected operation once the submit applied.
    mutating func settle(submitted: Int) {
        if let expected, submitted >= expected.operation { made[expected.origin] = expected.operation }
        expected = nil
    }

    func operation(madeBy origin: Int) -> Int? {
        made[origin]
    }
}
