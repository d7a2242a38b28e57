import ConformanceKit

/// A schedule of write-queue events, the queue explorer's unit of work and the replay format of
/// its regression tests.
///
/// The queue starts launched from fresh storage. `submit` adds `op-1`, `op-2`, … each with a
/// body of its own (`submitCopy(of:)` repeats an earlier body: a genuine new action, Q6;
/// `update` edits one entity again, which a coalescing queue may merge, Q12). Every body carries
/// a sensitive `card` field (Q10). Answers refer to sends by their number in the run (1 for the
/// first request that reached the kit's transport), or by operation and attempt, as the
/// explorer prints them. After every step the kit checks I7–I9 and the Q rules a single state
/// can break (see ``QueueExploration``).
///
/// ```swift
/// let schedule: QueueSchedule = [.submit, .sendingPass, .answer(send: 1, .status(503))]
/// let report = await schedule.run(against: MyQueueAdapter.self)
/// ```
public struct QueueSchedule: Hashable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    /// One event: a trigger, an answer to an open send, the clock, or a crash.
    public enum Step: Hashable, Sendable {
        /// Submit the next operation (`op-1`, `op-2`, …), a create with a body of its own.
        case submit
        /// Submit the next operation, a create whose body is byte for byte that of operation
        /// `of` (1 for `op-1`): the user created the same ticket twice on purpose.
        case submitCopy(of: Int)
        /// Submit the next operation, an update of the one entity `t-1` with a body of its own.
        case update
        /// Start a sending pass and let it run until it waits on the transport or the clock.
        case sendingPass
        /// Answer open send `send`.
        case answer(send: Int, Reply)
        /// Answer attempt `attempt` (1 for the first request) of operation `operation` (1 for
        /// `op-1`), or, when that attempt is not open, the operation's oldest open request.
        ///
        /// The explorer prints answers this way: a queue that sends several tasks at once may
        /// number its sends differently from run to run, but each operation's attempts come
        /// in order, so the regression test answers the same request on every run.
        case answerAttempt(_ attempt: Int, ofOperation: Int, Reply)
        /// Advance the manual clock to the next wake-up of a waiting pass (resuming the passes
        /// due then one at a time, in the order they started waiting); when no pass waits, by
        /// 1/16 of the declared backoff cap, as a periodic sync's later tick.
        case advanceClock
        /// Crash (drop every instance, no shutdown) and relaunch from the same storage.
        case crash

        /// The step as Swift code, such as `.answer(send: 2, .commitThen503)`.
        package var swiftCode: String {
            switch self {
            case .submit: ".submit"
            case .submitCopy(let original): ".submitCopy(of: \(original))"
            case .update: ".update"
            case .sendingPass: ".sendingPass"
            case .answer(let send, let reply): ".answer(send: \(send), .\(reply))"
            case .answerAttempt(let attempt, let operation, let reply):
                ".answerAttempt(\(attempt), ofOperation: \(operation), .\(reply))"
            case .advanceClock: ".advanceClock"
            case .crash: ".crash"
            }
        }

        /// The step's kind, without its arguments (`.submitCopy`, `.answer`): how a headline
        /// counts the triggers a search skipped.
        package var kindName: String {
            switch self {
            case .submitCopy: ".submitCopy"
            case .answer, .answerAttempt: ".answer"
            default: swiftCode
            }
        }
    }

    /// How the kit's server (an idempotency ledger) answers one send.
    public enum Reply: Hashable, Sendable, CustomStringConvertible {
        /// Commit (or find) the record and answer success.
        case success
        /// Commit the record, then answer 503: the outcome looks unknown.
        case commitThen503
        /// Commit the record, then drop the connection.
        case commitThenDrop
        /// Another body is already stored under the request's key: the server answers the
        /// profile's mismatch status (409, or 422 in the IETF profile) and commits nothing.
        case conflict
        /// Answer with `status` and commit nothing.
        case status(Int)
        /// The connection drops before the request reaches the server.
        case connectionLost
        /// No answer arrives in time; nothing reached the server.
        case timeout

        public var description: String {
            switch self {
            case .success: "success"
            case .commitThen503: "commitThen503"
            case .commitThenDrop: "commitThenDrop"
            case .conflict: "conflict"
            case .status(let status): "status(\(status))"
            case .connectionLost: "connectionLost"
            case .timeout: "timeout"
            }
        }

        var answer: SendAnswer {
            switch self {
            case .success: .serve
            case .commitThen503: .server(.commitThen503)
            case .commitThenDrop: .server(.commitThenDrop)
            case .conflict: .server(.conflictingRecord)
            case .status(let status): .server(.answer(status: status))
            case .connectionLost: .lost(.connectionLost)
            case .timeout: .lost(.timedOut)
            }
        }
    }

    /// The steps, in order.
    public var steps: [Step]

    /// Creates a schedule.
    public init(_ steps: [Step]) {
        self.steps = steps
    }

    public init(arrayLiteral elements: Step...) {
        self.init(elements)
    }

    public var description: String { swiftLiteral(indent: "") }

    /// The schedule as a Swift array literal, one step per line.
    package func swiftLiteral(indent: String) -> String {
        RegressionTestSource.arrayLiteral(steps.map(\.swiftCode), indent: indent)
    }

    /// This schedule as a Swift Testing test that replays it against `typeName`.
    func regressionTest(
        typeName name: String, module: String, invariant: ContractDescriptor, provenance: String,
        originalSteps: Int, strictTier: ContractTier? = nil
    ) -> String {
        RegressionTestSource.test(
            scheduleType: "QueueSchedule", literal: swiftLiteral(indent: "    "), steps: steps.count,
            typeName: name, checkArguments: "\(name).self", module: module, invariant: invariant,
            provenance: provenance, originalSteps: originalSteps, strictTier: strictTier)
    }
}
