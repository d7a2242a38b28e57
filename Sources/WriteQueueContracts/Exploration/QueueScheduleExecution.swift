import ConformanceKit
import Foundation

/// Runs a ``QueueSchedule`` on the kit's queue harness and, after every step, checks I7–I9 and
/// the Q rules a single state can break (see `QueueScheduleExecution+Rules.swift`).
///
/// It keeps the kit's own record of what happened: the operations submitted, the keys each
/// body was stored or sent under, which keys met a success, which requests met an unknown
/// outcome or a terminal answer, and the identity each stored task first showed.
final class QueueScheduleExecution<A: WriteQueueAdapter> {
    /// A failed rule, ready for the report.
    struct Failure: Error {
        let invariant: ContractID
        let violation: Violation
    }

    /// What identifies a request to the server: its key and its bytes.
    struct Identity: Hashable {
        let key: String?
        let body: Data

        init(_ request: WriteRequest) {
            key = request.idempotencyKey
            body = request.body
        }
    }

    /// The identity a stored task first showed.
    struct StoredIdentity {
        let key: String?
        let createdAt: String?
        let body: Data
        let step: Int
    }

    /// The entity every `update` step edits.
    static var updatedEntity: String { "t-1" }

    let harness: QueueHarness<A>
    var capabilities: QueueCapabilities { harness.capabilities }
    private(set) var operations: [QueueOperation] = []
    private(set) var stepsTaken = 0
    /// Submits and passes skipped because the kit could not have seen them join a parked
    /// request (``QueueStage/nextTriggerUnobservable``), as the pager explorer skips them.
    private(set) var unobservableTriggers = SkippedTriggers()
    /// The step now being checked, as Swift code.
    private(set) var currentStep: QueueSchedule.Step?
    /// The operation the current step submitted, if any.
    private(set) var justSubmitted: QueueOperation?
    /// Whether the current step moved the clock.
    private(set) var movedClock = false

    /// Every key a body was stored or sent under.
    var keysByBody: [Data: Set<String>] = [:]
    /// Keys whose request met a 2xx.
    var successKeys: Set<String> = []
    /// Sends already checked, by number, with the clock instant the kit first saw them.
    var seenAt: [Int: ManualClock.Instant] = [:]
    /// Requests whose last answer was an unknown outcome (5xx, dropped, timed out): when, and
    /// from which trigger.
    var unknownOutcome: [Identity: (at: ManualClock.Instant, trigger: Int?, send: Int)] = [:]
    /// Requests whose last answer, before a crash cleared ``unknownOutcome``, was an unknown
    /// outcome: a task lost after that was lost by the unknown outcome (Q2), whatever came
    /// after the relaunch.
    var unknownBeforeCrash: Set<Identity> = []
    /// Requests that met a terminal answer, with the status and the send.
    var terminalAnswer: [Identity: (status: Int, send: Int)] = [:]
    /// Requests whose last answer was a client error the adapter declares retryable (408, 429
    /// by default), with the status and the send.
    var retryableAnswer: [Identity: (status: Int, send: Int)] = [:]
    /// The identity each stored task (by operation ID) first showed.
    var storedIdentity: [String: StoredIdentity] = [:]
    /// When each trigger last had a request answered: a pass's wait on the clock starts no
    /// earlier (Q8 measures that wait, not time spent on other requests).
    var lastAnswerAt: [Int?: ManualClock.Instant] = [:]
    /// When a request with each body was last answered; unlike the rest, kept across a crash
    /// (a stored due time survives it), for the fingerprint.
    var lastAnsweredBody: [Data: ManualClock.Instant] = [:]
    private var updates = 0
    /// Bodies whose request was in flight when the app crashed, with that request's number:
    /// liveness asks that each is sent again after the relaunch.
    var inFlightAtCrash: [Data: Int] = [:]
    /// The first request with each key and body, whichever launch sent it: a relaunch's
    /// resend must carry its bytes (Q3). Kept across crashes.
    var firstRequest: [Identity: ParkedSend] = [:]
    /// How many times the schedule crashed the app so far.
    var crashes = 0
    /// Every key a body was stored or sent under before the last crash: a relaunch that sends
    /// one of these resends what the crashed launch left, whatever that was.
    var keysByBodyAtCrash: [Data: Set<String>] = [:]
    /// Every key storage showed for a body (sent keys left out).
    var storedKeysByBody: [Data: Set<String>] = [:]
    /// The keys storage showed for each body before the last crash: what a relaunch reads back.
    var storedKeysByBodyAtCrash: [Data: Set<String>] = [:]

    init(harness: QueueHarness<A>) {
        self.harness = harness
    }

    /// Open sends, by number.
    var openSends: [Int] { harness.openSends.map(\.number) }

    /// The earliest instant an open request reaches the declared request timeout, and the open
    /// requests that reach it then.
    private var nextRequestTimeout: (ManualClock.Instant, [ParkedSend])? {
        let timeout = capabilities.requestTimeout
        let deadlines = harness.openSends.compactMap { send in
            seenAt[send.number].map { (send: send, deadline: $0.advanced(by: timeout)) }
        }
        guard let earliest = deadlines.map(\.deadline).min() else { return nil }
        return (earliest, deadlines.filter { $0.deadline == earliest }.map(\.send))
    }

    /// What the server answers for `reply`. A status that stops a task is a validation error
    /// whose message quotes the rejected values, as the fixed Q10's 400 is: a queue that stores
    /// or logs the server's message whole leaks them (the seventh outside round's Core-Data-like
    /// outbox kept it in its "needs attention" list; the explorer's bare 400 never showed it).
    private func answer(for reply: QueueSchedule.Reply) -> SendAnswer {
        guard case .status(let status) = reply,
            status == 400 || status == 422
                || (capabilities.terminalStatusCodes.contains(status) && !capabilities.retryableStatusCodes.contains(status))
        else { return reply.answer }
        return .rejected(
            status: status,
            quoting: Dictionary(
                uniqueKeysWithValues: capabilities.sensitiveFields.map { ($0, WriteQueueContract.sensitiveCanary) }))
    }

    /// Whether a live pass waits on the clock.
    var someoneWaitsOnTheClock: Bool { harness.clock.nextLiveDeadline != nil }

    /// How many operations have been submitted, and how many of them are updates.
    var submittedCount: Int { operations.count }
    var updateCount: Int { updates }
    /// The numbers of the submitted creates (1 for `op-1`): what `submitCopy(of:)` may copy.
    var createNumbers: [Int] { operations.indices.filter { operations[$0].kind == .create }.map { $0 + 1 } }

    /// Applies one step and checks the rules.
    /// - Returns: `false` when the step could not apply and was skipped.
    @discardableResult
    func apply(_ step: QueueSchedule.Step) async throws -> Bool {
        // An answer named by operation and attempt is the answer to that request's send.
        if case .answerAttempt(let attempt, let operation, let reply) = step {
            if let number = openSend(operation: operation, preferring: attempt) {
                return try await apply(.answer(send: number, reply))
            }
            stepsTaken += 1
            harness.recorder.record("\(step.swiftCode) skipped: op-\(operation) has no open send")
            return false
        }
        stepsTaken += 1
        currentStep = step
        justSubmitted = nil
        movedClock = false
        let h = harness
        switch step {
        case .submit, .submitCopy, .update, .sendingPass:
            // Every task priority above a parked request was spent by earlier joins: a trigger
            // started now could join it unseen, and settling would wait on it for ever. Skip
            // it, like a step that cannot apply, and count it.
            if let reason = h.stage.nextTriggerUnobservable {
                unobservableTriggers.add(step.kindName)
                h.recorder.record("\(step.swiftCode) skipped: \(reason)")
                return false
            }
        default:
            break
        }
        switch step {
        case .submit, .submitCopy, .update:
            guard let operation = nextOperation(for: step) else {
                h.recorder.record("\(step.swiftCode) skipped: there is no create op-\(step.original ?? 0) to copy")
                return false
            }
            operations.append(operation)
            justSubmitted = operation
            try await h.submit(operation)
        case .sendingPass:
            try h.startPass()
            try await h.settle()
        case .answerAttempt:
            // Resolved to its send above.
            return false
        case .answer(let number, let reply):
            guard let send = h.openSends.first(where: { $0.number == number }) else {
                h.recorder.record("\(step.swiftCode) skipped: send #\(number) is not open")
                return false
            }
            // A request that reached its declared timeout can no longer be answered: it times
            // out, as a real transport ends it. The clock gets there through a wait due at the
            // same instant (the queue's own timeout, raced against the request in a task group:
            // it goes first, one thing at a time), and the queue has given up on the request by
            // then (the eighth outside round's reachability outbox was flagged Q4 and Q9 for a
            // 409 and a 400 it never received).
            if let sent = seenAt[number], sent.advanced(by: capabilities.requestTimeout) <= h.clock.now {
                h.recorder.record(
                    "\(step.swiftCode): send #\(number) reached the declared request timeout of "
                        + "\(ManualClock.format(capabilities.requestTimeout)) at \(sent.advanced(by: capabilities.requestTimeout)), "
                        + "so it times out instead")
                h.answer(send, .lost(.timedOut))
                if let answered = h.answered.last { note(answered.status, to: send, at: answered.at) }
                try await h.settle()
                break
            }
            // The ledger decides the real answer: a resend of a committed write gets the
            // original success whatever fault was asked for.
            h.answer(send, answer(for: reply))
            if let answered = h.answered.last { note(answered.status, to: send, at: answered.at) }
            try await h.settle()
        case .advanceClock:
            let tick = (capabilities.backoffCap ?? .seconds(16)) / 16
            // Strictly before the next wait ends (a wait due at the same instant goes first,
            // through the wait branch, so one thing at a time resumes).
            if let (deadline, overdue) = nextRequestTimeout,
                h.clock.nextLiveDeadline.map({ deadline < $0 }) ?? (deadline <= h.clock.now.advanced(by: tick))
            {
                // A request in flight for its declared timeout ends there, as a real transport
                // ends it, before anything later happens: an answer after that could never come,
                // and a pass that takes its task over after a lease in storage expired must not
                // meet it (the sixth trial's `ContextOutbox` was flagged Q7 for a 503 that came
                // 37 s into a 30 s request and cleared the next request's lease).
                try h.advanceClock(
                    to: max(deadline, h.clock.now),
                    recording: "advance clock to \(deadline) (send " + overdue.map { "#\($0.number)" }.joined(separator: ", ")
                        + " reaches the declared request timeout of \(ManualClock.format(capabilities.requestTimeout)))")
                for send in overdue {
                    h.answer(send, .lost(.timedOut))
                    if let answered = h.answered.last { note(answered.status, to: send, at: answered.at) }
                }
                try await h.settle()
                movedClock = true
            } else if try await h.advanceToNextWakeOneByOne() {
                movedClock = true
            } else {
                // Nothing waits on the clock: a queue that keeps due times in storage retries
                // only when time passes and a later pass runs, as a periodic sync would.
                guard !operations.isEmpty else {
                    h.recorder.record("\(step.swiftCode) skipped: nothing waits on the clock and nothing was submitted")
                    return false
                }
                try h.advanceClock(
                    by: tick, recording: "advance clock by \(ManualClock.format(tick)) (nothing waits on it: a later sync's tick)")
                try await h.settle()
            }
        case .crash:
            for send in h.openSends { inFlightAtCrash[send.request.body] = send.number }
            crashes += 1
            keysByBodyAtCrash.merge(keysByBody) { $0.union($1) }
            storedKeysByBodyAtCrash.merge(storedKeysByBody) { $0.union($1) }
            try await h.crash()
            unknownBeforeCrash.formUnion(unknownOutcome.keys)
            unknownOutcome = [:]
            retryableAnswer = [:]
            try await h.launch()
            try await h.settle()
        }
        // Work the queue left running (a drain a submit started in `Task { … }`) may reach the
        // transport within this step or the next, as threads fall: the thirty-second trial's
        // outbox sent its first request before a crash in some runs and after it in others,
        // so the next step was chosen from another state and the same seed printed other
        // schedules. Swift's queued jobs run out first, as before a crash (not the main queue's:
        // draining it at every step halved the explorer's queue throughput).
        if let watch = GlobalExecutorWatch.current, watch.jobsInFlight > 0 {
            _ = await watch.runOut()
            try await h.settle()
        }
        try await checkRules()
        return true
    }

    private func nextOperation(for step: QueueSchedule.Step) -> QueueOperation? {
        let number = operations.count + 1
        let extra = WriteQueueContract.unsortedBodyFields + harness.sensitiveExtras
        switch step {
        case .submitCopy(let original):
            guard operations.indices.contains(original - 1), operations[original - 1].kind == .create else { return nil }
            let copied = operations[original - 1]
            return QueueOperation(id: "op-\(number)", body: copied.body, sensitiveFields: copied.sensitiveFields)
        case .update:
            updates += 1
            return harness.operation(
                number, title: "Edit \(updates)", kind: .update(entity: Self.updatedEntity),
                extra: extra, sensitive: capabilities.sensitiveFields)
        default:
            return harness.operation(number, extra: extra, sensitive: capabilities.sensitiveFields)
        }
    }

    /// Records what the queue received for `send`.
    private func note(_ status: Int?, to send: ParkedSend, at instant: ManualClock.Instant) {
        let identity = Identity(send.request)
        unknownOutcome[identity] = nil
        unknownBeforeCrash.remove(identity)
        retryableAnswer[identity] = nil
        lastAnswerAt[send.trigger] = instant
        lastAnsweredBody[send.request.body] = instant
        switch status {
        case let status? where (200..<300).contains(status):
            if let key = send.request.idempotencyKey { successKeys.insert(key) }
        case nil:
            unknownOutcome[identity] = (instant, send.trigger, send.number)
        case let status? where status >= 500:
            unknownOutcome[identity] = (instant, send.trigger, send.number)
        case let status? where capabilities.makesFinal(status):
            terminalAnswer[identity] = (status, send.number)
        case let status? where (400..<500).contains(status):
            retryableAnswer[identity] = (status, send.number)
        default:
            break
        }
    }

    /// Which request send `number` was: the operation (1 for `op-1`) whose body it carried, and
    /// its attempt among the requests with that body (1 for the first). Shrinking refers to
    /// sends this way, so removing an unrelated step does not retarget an answer.
    func target(ofSend number: Int) -> (operation: Int, attempt: Int)? {
        guard let send = harness.sends.first(where: { $0.number == number }),
            let operation = operations.firstIndex(where: { $0.body == send.request.body })
        else { return nil }
        let attempt = harness.sends.filter { $0.request.body == send.request.body && $0.number <= number }.count
        return (operation + 1, attempt)
    }

    /// The open send of operation `operation` to answer: attempt `attempt` if it is open, else
    /// the oldest open one (a shrunk schedule may have fewer earlier attempts).
    func openSend(operation: Int, preferring attempt: Int) -> Int? {
        guard operations.indices.contains(operation - 1) else { return nil }
        let body = operations[operation - 1].body
        let open = Set(openSends)
        let matching = harness.sends.filter { $0.request.body == body }.map(\.number)
        if attempt <= matching.count, open.contains(matching[attempt - 1]) { return matching[attempt - 1] }
        return matching.first(where: open.contains)
    }

    /// Operations submitted with `body` (more than one after a `submitCopy`).
    func operations(withBody body: Data) -> [QueueOperation] {
        operations.filter { $0.body == body }
    }

    /// A failure of rule `id` at the current step.
    func fail(
        _ id: ContractID, _ summary: String, expected: String? = nil, actual: String? = nil,
        difference: String? = nil, hint: String, invariant: ContractID? = nil
    ) -> Failure {
        let descriptor = ContractCatalog.descriptor(id)
        let title = (descriptor?.title ?? id.rawValue)
            + (invariant.flatMap { ContractCatalog.descriptor($0) }.map { " (invariant \($0.title))" } ?? "")
        return Failure(
            invariant: id,
            violation: Violation(
                tier: descriptor?.tier ?? .required, summary: "\(title): \(summary)", expected: expected, actual: actual, difference: difference,
                hint: hint,
                step: harness.recorder.lastStep))
    }
}

extension QueueSchedule.Step {
    /// The operation a `submitCopy` copies.
    var original: Int? {
        if case .submitCopy(let original) = self { return original }
        return nil
    }
}
