import ConformanceKit
import Foundation

/// The settling machinery: which triggers the kit started, which requests are parked at the
/// transport, and when every live trigger has returned or is blocked on the timeline.
///
/// A trigger is settled when it has returned, or when there is evidence it cannot move until the
/// timeline does something: a request it sent is parked here, or it waits on the manual clock.
/// The timeline waits for that by events (a request parks, a wait starts, a trigger returns,
/// the triggers' executor goes idle), never by time. A crash kills a generation of triggers:
/// their parked requests and waits are frozen until the end of the timeline, as if their
/// process were gone.
///
/// Evidence, in full:
/// - the triggers' work is idle on their `WatchedTaskExecutor` (no child task of a pass is still
///   on its way to the transport), and, for each trigger,
/// - it has returned; or a request sent under its task-local tag is parked; or it waits on the
///   clock; or it awaits a task that waits on a parked request (seen through task-priority
///   escalation, probed as the pager half does), and then, after that request's answer, for as
///   long as the work it joined is blocked again (a backoff on the clock, the next request); or
///   a request of its launch arrived with no tag
///   (sent from the app's own `DispatchQueue`, `OperationQueue` or a completion handler, where
///   task-locals do not travel) and is parked.
final class QueueStage: Sendable {
    fileprivate struct Trigger {
        let number: Int
        let label: String
        let generation: Int
        var ending: String?
        var dead = false
        var priority: UInt8 = 0
        /// What the stage looked like when the trigger was last probed: a probe that found
        /// nothing is not repeated until a request parks or is answered, a wait on the clock
        /// begins, or a trigger ends (the trigger may then wait on something else).
        var probedAt: ProbeEpoch?
        /// Whether the trigger was ever seen joining a parked request, or runs for the queue's
        /// own work (a pass the timeline started for a timer or a request sent alone).
        var everJoined = false
    }

    fileprivate struct ProbeEpoch: Equatable {
        let parkedVersion: Int
        let waitsBegun: Int
        let endings: Int
    }

    fileprivate struct Parked {
        let send: ParkedSend
        /// The identity of the task that sent it (the one that waits on it, for an async send).
        let task: Int?
        let resume: @Sendable (Result<WriteResponse, any Error>) -> Void
        /// The priority of the task waiting on it (raised when another task joins it).
        var priority: UInt8
    }

    /// Everything the triggers, the transport and the timeline share, behind one lock.
    fileprivate struct State {
        var triggers: [Int: Trigger] = [:]
        /// Each trigger's launch: read on every settle for every parked request, without
        /// copying the trigger.
        var generations: [Int: Int] = [:]
        /// The triggers that neither ended nor died: settling looks only at these.
        var live: Set<Int> = []
        /// Triggers in the order they ended.
        var endings: [Int] = []
        var tasks: [Int: Task<Void, Never>] = [:]
        var parked: [Int: Parked] = [:]
        var sendCount = 0
        var triggerCount = 0
        var waiter: CheckedContinuation<Void, Never>?
        var finishing = false
        var deadInstances: Set<Int> = []
        /// Triggers seen joining a parked request (their `await` on a task escalated it), by the
        /// request's number.
        var joined: [Int: Int] = [:]
        /// Triggers seen joining a trigger that waits on the clock, by the waiting trigger.
        var joinedClock: [Int: Int] = [:]
        /// For each trigger seen joining, the identity of the task it joined (the one that sent
        /// the request, or waits on the clock). The joiner awaits that task, which goes on
        /// after an answer: to a backoff on the clock, or to its next request. While that task
        /// is blocked on the timeline it has not ended, so the joiner still waits on it, with no
        /// new escalation (at the top task priority there is none to give).
        var joinedTask: [Int: Int] = [:]
        /// Changes whenever a request parks or is answered.
        var parkedVersion = 0
        /// The trigger being probed right now (an escalation it causes names it).
        var probing: Int?
        /// Whether any trigger of this timeline was seen joining a parked request or a clock
        /// wait: only then can a trigger started at the spent top priority join unseen.
        var joinsSeen = false
        var events = 0
        /// Launches where work a call left running sent a request after the call returned: a
        /// worker of their own.
        var workers: Set<Int> = []
        /// Launches that sent a request under a trigger's tag (from Swift concurrency), and
        /// launches that sent one with no tag (from a `DispatchQueue` or callback of their own).
        var taggedSenders: Set<Int> = []
        var untaggedSenders: Set<Int> = []
        /// Triggers found stalled (see ``QueueStage/abandonLiveTriggers()``): not awaited at the end.
        var abandoned: Set<Int> = []
        /// Requests sent after the timeline ended (each answered as cancelled), and, once there
        /// are more than ``QueueStage/sendsAfterTheEndLimit``, the wait of ``QueueStage/finish()``
        /// that gives up on them.
        var sendsAfterTheEnd = 0
        var endWaiter: CheckedContinuation<Void, Never>?
        var endWaitOver = false
        /// Triggers whose evidence is a guess: seen joining before, with no priority left to see
        /// it again, they are taken as joined to their launch's newest request or clock wait
        /// (see `probes`). Cleared when a join is seen again or the trigger ends.
        var guessedJoins: Set<Int> = []
    }

    let clock: ManualClock
    private let state = Locked(rawValue: State())
    private let executor: TriggerExecutor
    /// Whether a trigger started on the spent top rung is taken as joined: where the explorer
    /// asked for it, and wherever the global executor is watched (a contract has no replay to
    /// catch a guess that misleads it, so its guess must rest on every job having run).
    private var takesJoinsOnTheTopRung: Bool {
        guessesJoinsOnTheTopRung || GlobalExecutorWatch.current != nil
    }

    /// Whether settling runs the main queue before it probes a trigger with no evidence (see
    /// ``settle(untilStalled:)``). Contracts do; the explorer does not (see
    /// ``init(clock:drainsMainQueueBeforeProbing:)``).
    private let drainsMainQueueBeforeProbing: Bool
    /// Whether a trigger started with no priority rung left is taken as joined when it has no
    /// evidence of its own (see ``init(clock:drainsMainQueueBeforeProbing:guessesJoinsOnTheTopRung:)``).
    private let guessesJoinsOnTheTopRung: Bool

    /// Creates a stage on `clock`.
    ///
    /// - Parameters:
    ///   - drainsMainQueueBeforeProbing: Whether a trigger with no evidence while the executor
    ///     is idle waits for the main queue to run what it holds before it is probed. The
    ///     contracts need it (a `@MainActor` queue's pass on its way onto the main actor
    ///     otherwise spends the priority rungs for nothing: the eighth trial's
    ///     `PendingUploadsSync` ended Q7 on the watchdog in 29 runs of 300, and in 46 of 300
    ///     measured again; 0 of 300 with it, both times). The explorer's schedules do without
    ///     it: with it, `conformance explore --queues` stopped moving in `JitterOutbox` (every
    ///     thread idle for minutes, no line printed; the cause is not found), while without it
    ///     every explored queue passes its budget.
    ///   - guessesJoinsOnTheTopRung: Whether a trigger started with no rung above every parked
    ///     request and wait (so a join of its could never be seen) is taken as joined when it
    ///     has no evidence of its own, after the work the kit cannot see ran out. The explorer
    ///     does: without it, settling waited for an event that never came (the `@MainActor`
    ///     `PendingUploadsSync` spent its schedules on watchdog stalls: 185 s for 2,000 with a
    ///     5 s watchdog; 35.5 s with it), and a guess that misleads a schedule is caught by the
    ///     search's replay. The contracts do only where the ``GlobalExecutorWatch`` is
    ///     installed: a contract has no replay to catch a guess that misleads it, so the guess
    ///     must rest on every job of the global executor having run (a second reachability
    ///     outbox from the eighth outside round, whose later passes join a sync in an
    ///     unstructured `Task`, ended Q7 on the watchdog in 1 run of 8 without it). The queue
    ///     explorer then no longer skips such a trigger (see ``nextTriggerUnobservable``).
    init(clock: ManualClock, drainsMainQueueBeforeProbing: Bool = true, guessesJoinsOnTheTopRung: Bool = false) {
        self.clock = clock
        self.drainsMainQueueBeforeProbing = drainsMainQueueBeforeProbing
        self.guessesJoinsOnTheTopRung = guessesJoinsOnTheTopRung
        let signal = SignalRelay()
        executor = TriggerExecutor(becameIdle: { signal.fire() })
        signal.target = { [weak self] in self?.signal() }
        clock.addObserver { [weak self] in self?.signal() }
        clock.addJoinObserver(witness: { [weak self] in
            Joiner(tag: TriggerContext.current, probing: self?.state.withLock { $0.probing })
        }) { [weak self] waiting, task, joiner in
            self?.noteClockJoin(of: waiting, task: task, by: joiner)
        }
    }

    /// Whether the triggers' executor has no job queued or running (always, where task
    /// executors do not exist).
    private var executorIsIdle: Bool { executor.isIdle }

    // MARK: Triggers

    /// Starts `body` as a trigger tagged with its number and returns the number.
    func start(
        _ label: String, generation: Int, joinsOwnWork: Bool = false,
        _ body: @escaping @Sendable () async throws -> Void
    ) -> Int {
        let (number, priority) = state.withLock { state in
            state.triggerCount += 1
            // One rung above every parked request, so that a trigger awaiting the task that
            // waits on one (a second pass joining the running pass) escalates it: the request's
            // escalation handler then names the joiner.
            let floor = max(state.joinablePriority, clock.highestWaitPriority ?? 0)
            let priority = PriorityLadder.startingRung(above: floor)
            // Started with no rung above every parked request and wait (five passes each parked
            // their own, or joins spent them): a join of this trigger's could never be seen.
            // Exploring, with no evidence of its own, it is taken as joined, as one seen joining
            // before is (after the work the kit cannot see ran out).
            let spent = takesJoinsOnTheTopRung && PriorityLadder.rung(above: floor) == nil
            state.triggers[state.triggerCount] = Trigger(
                number: state.triggerCount, label: label, generation: generation, priority: priority,
                everJoined: joinsOwnWork || spent)
            state.live.insert(state.triggerCount)
            state.generations[state.triggerCount] = generation
            return (state.triggerCount, priority)
        }
        let run: @Sendable () async -> Void = {
            var ending = "returned"
            do {
                try await TriggerContext.$current.withValue(number) { try await body() }
            } catch {
                ending = "threw \(error)"
            }
            self.triggerReturned(number, ending: ending)
        }
        let task = executor.startTask(priority: TaskPriority(rawValue: priority)) { await run() }
        state.withLock { $0.tasks[number] = task }
        return number
    }

    /// Calls `start`, which starts triggers, so that their first jobs run as `release` says:
    /// triggers started together, as two passes a foreground resume and a background sync
    /// start in the same instant.
    func startingTogether<Result>(
        release: FirstJobsRelease = .backToBack, _ start: () throws -> Result
    ) rethrows -> Result {
        try executor.startingTogether(release: release, start)
    }

    private func triggerReturned(_ number: Int, ending: String) {
        state.withLock { state in
            state.triggers[number]?.ending = ending
            state.live.remove(number)
            state.guessedJoins.remove(number)
            state.endings.append(number)
        }
        // What a call left running waits on the clock as the queue's own timer: played by the
        // timeline, never resumed (see `QueueHarness.noteClockMoved(waking:)`).
        clock.hold(trigger: number)
        signal()
    }

    /// How the trigger ended (`returned`, `threw …`), or `nil` while it runs.
    func ending(of trigger: Int) -> String? {
        state.withLock { $0.triggers[trigger]?.ending }
    }

    /// The label the trigger was started with.
    func label(of trigger: Int?) -> String {
        guard let trigger else { return "no trigger" }
        return state.withLock { state in state.triggers[trigger]?.label } ?? "trigger \(trigger)"
    }

    /// Triggers that ended after the first `skipping` endings, with their label and how they
    /// ended, in the order they ended.
    func endedTriggers(skipping count: Int) -> [(number: Int, label: String, ending: String)] {
        state.withLock { state in
            state.endings.dropFirst(count).compactMap { number in
                state.triggers[number].flatMap { trigger in
                    trigger.ending.map { (number, trigger.label, $0) }
                }
            }
        }
    }

    /// Whether a call of launch `instance` left work of the queue's own running after it
    /// returned: that work sent a request, or waits on the clock (a worker loop, a retry timer,
    /// a periodic sync).
    func hasOwnWorker(instance: Int) -> Bool {
        if state.withLock({ $0.workers.contains(instance) }) { return true }
        return queueTimers.contains { $0.instance == instance }
    }

    /// The launch of `trigger` while it runs, or `nil` once it ended or died.
    func liveInstance(of trigger: Int) -> Int? {
        state.withLock { state in
            state.live.contains(trigger) ? state.triggers[trigger]?.generation : nil
        }
    }

    /// Whether a trigger of launch `instance` is running.
    func hasRunningTrigger(instance: Int) -> Bool {
        state.withLock { $0.hasRunningTrigger(instance: instance) }
    }

    /// Triggers of the live generations that have not returned.
    var runningTriggers: [Int] {
        state.withLock { state in
            state.live.sorted()
        }
    }

    /// Kills every trigger of `generation`: the app process is gone. Returns the requests that
    /// die with it.
    func kill(generation: Int) -> [ParkedSend] {
        let (killed, sends): (Set<Int>, [ParkedSend]) = state.withLock { state in
            var killed: Set<Int> = []
            for (number, trigger) in state.triggers where trigger.generation == generation {
                state.triggers[number]?.dead = true
                state.live.remove(number)
                killed.insert(number)
            }
            state.deadInstances.insert(generation)
            let sends = state.parked.values.map(\.send).filter { send in
                send.trigger.map(killed.contains) ?? (send.instance == generation)
            }
            return (killed, sends.sorted { $0.number < $1.number })
        }
        clock.freeze(triggers: killed)
        return sends
    }

    // MARK: Requests

    /// Parks `request`, sent through the transport of launch `instance`, until the timeline
    /// answers it. Called by the transport.
    func park(_ request: WriteRequest, instance: Int, layout: RequestLayout) async throws -> WriteResponse {
        let trigger = TriggerContext.current
        // The handler is installed before the request registers: a join after that must always
        // produce an event. The handler learns the request's number before the request is
        // visible to settling, so a probe it wakes always names it (set after the registration,
        // a probe in between was lost: 1 run in 30 of a joining queue ended on the watchdog).
        // One that comes while the request is registering, before its number is known, is kept
        // and noted in the same critical section that makes the request visible: dropped there,
        // a probe's escalation left the request at its creation priority and the pass that sent
        // it one rung higher, so the next pass started on the top rung unspent, joined unseen,
        // and the explorer ended on the watchdog (`JitterBackoffOutbox`, 1 schedule in about
        // 20,000). Noted after the registration's event, a settle could end, and the next pass
        // start, in between.
        let escalations = EscalationsBeforeRegistration<Escalation>()
        return try await PriorityLadder.observingEscalation {
            try await withCheckedThrowingContinuation { continuation in
                register(
                    request, instance: instance, trigger: trigger, layout: layout, isCallback: false,
                    numbered: { state, number in
                        for escalation in escalations.register(number) { state.noteJoin(of: number, escalation) }
                    }
                ) { continuation.resume(with: $0) }
            }
        } onEscalated: { new in
            // Read here, on the escalating task: its tag names the joiner, and a probe's
            // escalation runs inside the probe.
            let escalation = Escalation(
                priority: new,
                joiner: Joiner(tag: TriggerContext.current, probing: self.state.withLock { $0.probing }))
            if let number = escalations.deliver(escalation) { self.noteJoin(of: number, escalation) }
        }
    }

    /// An escalation of the task waiting on a request, as its handler saw it.
    fileprivate struct Escalation: Sendable {
        let priority: TaskPriority
        /// Who escalated, read on the escalating task.
        let joiner: Joiner
    }

    /// Another task escalated the one waiting on request `number`: it awaits that task.
    private func noteJoin(of number: Int, _ escalation: Escalation) {
        state.withLock { $0.noteJoin(of: number, escalation) }
        signal()
    }

    /// A task awaiting one that waits on the clock escalated it: the joining trigger waits on
    /// that trigger's wait.
    private func noteClockJoin(of waiting: Int?, task: Int?, by joiner: Joiner) {
        if let waiting {
            state.withLock { $0.noteJoin(by: joiner, awaiting: .clockWait(trigger: waiting, task: task)) }
        }
        signal()
    }

    /// Why a trigger started now might not be seen joining a parked request, or `nil`: escalation
    /// only raises a priority and only five raw priorities exist, so a request joined by several
    /// triggers in turn sits at the top rung, and a further join escalates nothing.
    ///
    /// Where joins on the spent top rung are taken (see
    /// ``init(clock:drainsMainQueueBeforeProbing:guessesJoinsOnTheTopRung:)``) and the global
    /// executor is watched, nothing is unobservable: the guess rests on every job having run.
    ///
    /// Only a timeline that has seen a join says so. The top rung also fills without any join
    /// (five passes each parking their own request): a queue that never joined gives its next
    /// trigger the top rung, and that trigger parks, waits or returns as the others did.
    var nextTriggerUnobservable: String? {
        // The floor `start` puts a new trigger above: parked requests and waits on the clock.
        let waitPriority = clock.highestWaitPriority ?? 0
        return state.withLock { state in
            guard state.joinsSeen, GlobalExecutorWatch.current == nil else { return nil }
            let parkedPriority = state.joinablePriority
            guard PriorityLadder.rungsLeft(above: max(parkedPriority, waitPriority)) == 0 else { return nil }
            return parkedPriority >= waitPriority
                ? "a request is parked at the top task priority after earlier joins; a trigger that "
                    + "joined it now could not be seen"
                : "a pass waits on the clock at the top task priority after earlier joins; a trigger "
                    + "that joined it now could not be seen"
        }
    }

    /// Parks `request` for a completion-handler transport: `completion` runs once, with the
    /// timeline's answer, on the thread that answers it.
    func parkCallback(
        _ request: WriteRequest, instance: Int, layout: RequestLayout,
        completion: @escaping @Sendable (Result<WriteResponse, any Error>) -> Void
    ) {
        register(
            request, instance: instance, trigger: TriggerContext.current, layout: layout, isCallback: true,
            completion)
    }

    @discardableResult
    private func register(
        _ request: WriteRequest, instance: Int, trigger: Int?, layout: RequestLayout, isCallback: Bool,
        numbered: (inout State, Int) -> Void = { _, _ in },
        _ resume: @escaping @Sendable (Result<WriteResponse, any Error>) -> Void
    ) -> Int? {
        let (key, body) = layout.normalize(request)
        let priority = UInt8(truncatingIfNeeded: Task.currentPriority.rawValue)
        let task = isCallback ? nil : withUnsafeCurrentTask { $0?.hashValue }
        let accepted: Int? = state.withLock { state in
            if trigger == nil { state.untaggedSenders.insert(instance) } else { state.taggedSenders.insert(instance) }
            guard !state.finishing else {
                state.sendsAfterTheEnd += 1
                return nil
            }
            state.sendCount += 1
            let send = ParkedSend(
                number: state.sendCount, trigger: trigger, instance: instance,
                request: WriteRequest(idempotencyKey: key, body: body), rawBody: request.body,
                isCallback: isCallback)
            state.parked[state.sendCount] = Parked(send: send, task: task, resume: resume, priority: priority)
            if let owner = trigger.flatMap({ state.triggers[$0] }), owner.ending != nil, !owner.dead {
                state.workers.insert(owner.generation)
            }
            state.parkedVersion += 1
            numbered(&state, state.sendCount)
            return state.sendCount
        }
        if accepted != nil {
            signal()
        } else if case .hold(let waiter) = sendAfterTheEnd() {
            // A queue that sends again at once on every answer after the end (a retry with no
            // delay that ignores cancellation) would keep ``finish()`` waiting forever: past the
            // limit its requests are left unanswered, as a request that never returns, and the
            // wait for its triggers ends.
            waiter?.resume()
            Self.heldForever.withLock { $0.append(resume) }
        } else {
            resume(.failure(CancellationError()))
        }
        return accepted
    }

    /// How many requests the queue may send after the timeline ended (each answered as
    /// cancelled) before ``finish()`` stops waiting for its triggers. A queue that ends its pass
    /// on cancellation sends a few; one that retries at once forever reaches it within
    /// milliseconds (the thirtieth trial's outbox, whose delay overflowed to zero at its 64th
    /// retry, kept the end of Q8 waiting 30 s for the watchdog).
    static let sendsAfterTheEndLimit = 256

    /// Completions of requests left unanswered past ``sendsAfterTheEndLimit``: kept for the
    /// life of the process, so none is released unresumed (a checked continuation would say it
    /// leaked).
    private static let heldForever = Locked<[@Sendable (Result<WriteResponse, any Error>) -> Void]>(rawValue: [])

    /// What to do with a request refused after the end.
    private enum AfterTheEnd {
        /// Answer it as cancelled.
        case answer
        /// Leave it unanswered (one too many), and resume the end's wait if it still waits.
        case hold(CheckedContinuation<Void, Never>?)
    }

    /// Whether the request just refused after the end was one too many.
    private func sendAfterTheEnd() -> AfterTheEnd {
        state.withLock { state in
            guard state.sendsAfterTheEnd > Self.sendsAfterTheEndLimit else { return .answer }
            defer { state.endWaiter = nil }
            state.endWaitOver = true
            return .hold(state.endWaiter)
        }
    }

    /// Whether the queue sent so many requests after the timeline ended that the end stopped
    /// waiting for its triggers.
    var stoppedWaitingAfterTheEnd: Bool {
        state.withLock { $0.sendsAfterTheEnd > Self.sendsAfterTheEndLimit }
    }

    /// Requests parked by live triggers, oldest first.
    var liveSends: [ParkedSend] {
        state.withLock { state in
            state.parked.values.map(\.send).filter { send in
                if state.isLaunchLevel(send) {
                    return !state.deadInstances.contains(send.instance)
                        && state.hasRunningTrigger(instance: send.instance)
                }
                return !(send.trigger.flatMap { state.triggers[$0] }?.dead ?? true)
            }.sorted { $0.number < $1.number }
        }
    }

    /// Requests no live trigger awaits (sent from outside every trigger, or by work a trigger
    /// left running after it returned), oldest first.
    var orphanSends: [ParkedSend] {
        state.withLock { state in
            state.parked.values.map(\.send).filter { send in
                state.isLaunchLevel(send) && !state.deadInstances.contains(send.instance)
                    && !state.hasRunningTrigger(instance: send.instance)
            }.sorted { $0.number < $1.number }
        }
    }

    /// Clock waits outside every trigger (a detached task, a `DispatchQueue`): no call of the
    /// kit began them, so none can stand for them. A wait a call left running after it returned
    /// is the queue's own timer (see ``queueTimers``), not an orphan.
    var orphanWaits: [Int?] {
        clock.waitingTriggers.filter { $0 == nil }
    }

    /// The queue's own timers: waits on the clock begun by work a call of a live launch left
    /// running after it returned (a retry timer a drain re-arms, a worker's timer, a periodic
    /// sync), with the wait's identity and the launch's instance, earliest deadline first. The
    /// clock holds them (never resumes them).
    var queueTimers: [(id: Int, instance: Int, deadline: ManualClock.Instant)] {
        let held = clock.heldWaits
        return state.withLock { state in
            held.compactMap { wait in
                guard let owner = state.triggers[wait.trigger], !owner.dead else { return nil }
                return (wait.id, owner.generation, wait.deadline)
            }
        }
    }

    /// Answers a parked request.
    func resume(_ number: Int, with result: Result<WriteResponse, any Error>) {
        let entry = state.withLock { state in
            state.parkedVersion += 1
            return state.parked.removeValue(forKey: number)
        }
        entry?.resume(result)
    }

    // MARK: Settling

    /// Returns when every live trigger has returned, or has a request parked, or waits on the
    /// clock. Events wake it; it never polls.
    ///
    /// A trigger with no evidence while the triggers' work is idle may be awaiting a task that
    /// waits on a parked request (a pass joining the running pass through `await task.value`):
    /// it is probed by raising its priority one rung above every parked request, and if the
    /// escalation reaches a parked request inside that call, it waits on it. When the five
    /// priorities are spent, a trigger seen joining before is taken as joined to the newest
    /// parked request of its launch.
    func settle() async {
        _ = await settle(untilStalled: false)
    }

    /// Settles as ``settle()`` does, but returns `false` instead of waiting for an event when a
    /// live trigger has no evidence while the triggers' executor is idle and no probe is left:
    /// nothing the kit can see will move it. The caller decides whether that is a stall (after
    /// letting the work it cannot see run out) or waits.
    func settle(untilStalled: Bool) async -> Bool {
        var drainedAt: Int? = nil
        var drainedBeforeProbingAt: Int? = nil
        while true {
            let (settled, probes, seen, drainFirst): (Bool, [Probe], Int, Bool) = state.withLock { state in
                if state.isSettled(executorIdle: executorIsIdle, clock: clock) {
                    return (true, [], state.events, false)
                }
                let idle = executorIsIdle
                // A trigger with no evidence while the executor is idle may be on its way onto
                // the main actor (a `@MainActor` queue's pass): its job waits on the main queue,
                // which the kit's executor does not see. Probing it there spends a rung for
                // nothing (the escalation finds no join), and with the rungs spent a later pass
                // joining the running one goes unseen: the eighth trial's `PendingUploadsSync`
                // ended Q7 on the watchdog in 29 runs of 300. So the main queue runs what it
                // holds before any probe, once per event.
                if idle, drainsMainQueueBeforeProbing, drainedBeforeProbingAt != state.events, state.hasUnexplainedTrigger(clock: clock) {
                    return (false, [], state.events, true)
                }
                let probes = state.probes(
                    executorIdle: idle, clock: clock, escalationAvailable: PriorityLadder.escalationAvailable)
                // With the priorities spent, `probes` takes a trigger seen joining before as
                // joined to the newest request: that can settle it, and no event follows.
                if probes.isEmpty && state.isSettled(executorIdle: idle, clock: clock) {
                    return (true, [], state.events, false)
                }
                return (false, probes, state.events, false)
            }
            if drainFirst {
                drainedBeforeProbingAt = seen
                await drainMainQueue()
                continue
            }
            // A trigger taken as blocked behind the app's own requests (no tag) may instead be
            // on its way onto the main actor (a `@MainActor` queue's submit while its callback
            // transport's request is parked): its job waits on the main queue, which the kit's
            // executor does not see. Once the main queue (and the global executor after it) ran
            // what was queued, nothing moved, or settle again (the seventh trial: a storage check before such a submit ran, a false
            // Q1 or Q6 from the explorer in up to 80 of 300 replays on a loaded machine).
            //
            // So may a trigger whose evidence is a guess (see ``State/guessedJoins``): the work it
            // joined runs in a task the kit did not start (a drain in an unstructured `Task`),
            // whose next job may be queued on the global executor, about to send the next request.
            // Taking the guess then ended the explorer's liveness check before that request
            // parked: a false Q3 on the twenty-third trial's `AsyncStreamSyncWorker` in 25 to 44
            // schedules of 2,000, one run in six confirmed on replay. Jobs queued there run out
            // before the guess stands.
            //
            // So may a wait in an unstructured task (a sync in `Task { … }` that races each
            // request against a timeout on the clock): its timeout wait can begin before the
            // request reaches the transport, or stand after the answer until the task group
            // cancels it, and the jobs that send or cancel are queued on the global executor.
            // Taking that wait as evidence moved the clock under a request still on its way
            // (the eighth outside round's second reachability outbox: false Q3, Q4, Q8, Q9 and
            // Q12 verdicts on a loaded machine).
            if settled, drainedAt != seen,
                clock.hasLiveUnstructuredWait
                    || state.withLock({ $0.restsOnLaunchLevelSends(clock: clock) || $0.reliesOnGuessedJoin })
            {
                drainedAt = seen
                await drainQueuedWork(stop: { [state] in state.withLock { $0.events } != seen })
                // Look again even with no event: what ran may have ended the evidence without
                // one (a task group cancelling its timeout wait).
                continue
            }
            if settled { return true }
            if !probes.isEmpty {
                for probe in probes { run(probe) }
                continue
            }
            if untilStalled, executorIsIdle, state.withLock({ $0.events }) == seen { return false }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let moved: Bool = state.withLock { state in
                    if state.events != seen { return true }
                    state.waiter = continuation
                    return false
                }
                if moved { continuation.resume() }
            }
        }
    }

    fileprivate struct Probe {
        let trigger: Int
        let task: Task<Void, Never>
        let priority: UInt8
    }

    private func run(_ probe: Probe) {
        guard PriorityLadder.escalationAvailable else { return }
        state.withLock { $0.probing = probe.trigger }
        PriorityLadder.escalate(probe.task, to: probe.priority)
        state.withLock { $0.probing = nil }
    }

    /// Whether a live trigger counts as blocked only by a guess (see ``State/guessedJoins``): it
    /// may instead be running on the app's own `DispatchQueue`, which the adapter's barrier runs
    /// out.
    var reliesOnGuessedJoin: Bool {
        state.withLock { $0.reliesOnGuessedJoin }
    }

    /// Whether a parked request is known only by its launch (no trigger tag): only then can the
    /// app's own machinery be about to send more, and the adapter's barrier is worth a call.
    var hasLaunchLevelSends: Bool {
        state.withLock { state in
            // A loop, not `contains { state.… }`: a closure capturing the inout state copies it.
            for parked in state.parked.values where state.isLaunchLevel(parked.send) { return true }
            return false
        }
    }

    /// What the stage sees, for a watchdog message: each running trigger with its evidence, each
    /// parked request, and whether the triggers' executor is idle.
    var stateDescription: String {
        state.withLock { state in
            let waiting = Set(clock.waitingTriggers.compactMap { $0 })
            let running = state.live.sorted().compactMap { number -> String? in
                guard let trigger = state.triggers[number] else { return nil }
                let evidence: String
                if state.parked.values.contains(where: { $0.send.trigger == number }) {
                    evidence = "has a request parked"
                } else if waiting.contains(number) {
                    evidence = "waits on the clock"
                } else if let request = state.joined[number], state.parked[request] != nil {
                    evidence = "joined request #\(request)"
                        + (state.guessedJoins.contains(number) ? " (a guess: no priority was left to see it)" : "")
                } else if let other = state.joinedClock[number], waiting.contains(other),
                    let waitingTrigger = state.triggers[other]
                {
                    evidence = "joined \"\(waitingTrigger.label)\", which waits on the clock"
                        + (state.guessedJoins.contains(number) ? " (a guess: no priority was left to see it)" : "")
                } else if let task = state.joinedTask[number], state.isBlocked(task: task, waitingTasks: clock.waitingTasks) {
                    evidence = "joined a task that is blocked again (a later request, or the clock)"
                } else {
                    evidence = "no evidence it is blocked"
                }
                return "\"\(trigger.label)\" (priority \(trigger.priority)): \(evidence)"
            }
            let requests = state.parked.values.sorted { $0.send.number < $1.send.number }.map { entry in
                "request #\(entry.send.number) of launch #\(entry.send.instance) "
                    + (entry.send.trigger.map { "from trigger #\($0)" } ?? "with no trigger tag")
                    + " at priority \(entry.priority)"
            }
            return (running.isEmpty ? "no running trigger" : "running: " + running.joined(separator: "; "))
                + "; " + (requests.isEmpty ? "no parked request" : "parked: " + requests.joined(separator: ", "))
                + "; executor " + (executorIsIdle ? "idle" : "busy")
                + (GlobalExecutorWatch.current.map { "; global executor: \($0.jobsInFlight) jobs queued or running" } ?? "")
        }
    }

    /// How many events (a request registered, a wait began, a trigger returned, the executor
    /// went idle) the stage has seen: equal before and after a barrier means nothing moved.
    var eventCount: Int { state.withLock { $0.events } }

    private func signal() {
        let waiting: CheckedContinuation<Void, Never>? = state.withLock { state in
            state.events += 1
            defer { state.waiter = nil }
            return state.waiter
        }
        waiting?.resume()
    }

    // MARK: Finishing

    /// Whether every request launch `instance` sent came with no trigger tag: its work runs on
    /// a `DispatchQueue` or in callbacks of its own, which the adapter's `waitForPendingWork`
    /// runs out, so a call of it that is idle after that barrier is stalled, not busy elsewhere.
    func sendsOnlyFromItsOwnQueues(instance: Int) -> Bool {
        state.withLock { $0.untaggedSenders.contains(instance) && !$0.taggedSenders.contains(instance) }
    }

    /// Whether some launch sent a request and every request of every launch came with no
    /// trigger tag (see ``sendsOnlyFromItsOwnQueues(instance:)``).
    var sentOnlyFromItsOwnQueues: Bool {
        state.withLock { !$0.untaggedSenders.isEmpty && $0.taggedSenders.isEmpty }
    }

    /// The launches of the live triggers.
    var liveInstances: Set<Int> {
        state.withLock { state in Set(state.live.compactMap { state.triggers[$0]?.generation }) }
    }

    /// Gives up on every live trigger: the timeline found them stalled and ends, and
    /// ``finish()`` cancels them without awaiting them (their tasks stay suspended until the
    /// process ends, as a call that never returns would in the app).
    func abandonLiveTriggers() {
        state.withLock { $0.abandoned.formUnion($0.live) }
    }

    /// Ends the timeline: answers every open request with a dropped connection, cancels every
    /// trigger (which ends their clock waits) and awaits them all, so no continuation leaks.
    ///
    /// A dropped connection, not a cancellation: it is the unknown outcome every queue handles,
    /// and every contract has already judged how. A cancelled request is Q2's to judge; as the
    /// end of every timeline it made a queue that stalls on cancellations (the eighteenth
    /// trial's `PunchClockOutbox`) hang Q1 and Q3 on the watchdog after their checks passed.
    func finish() async {
        let (open, running, awaited): ([Parked], [Task<Void, Never>], [Task<Void, Never>]) = state.withLock { state in
            state.finishing = true
            defer { state.parked = [:] }
            let awaited = state.tasks.filter { !state.abandoned.contains($0.key) }.map(\.value)
            return (Array(state.parked.values), Array(state.tasks.values), awaited)
        }
        for entry in open { entry.resume(.failure(TransportError.connectionLost)) }
        for task in running { task.cancel() }
        clock.close()
        // Every trigger ends, or the queue keeps sending past ``sendsAfterTheEndLimit``: the
        // triggers are then left running (the task that awaits them stays suspended).
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let over = state.withLock { state in
                if !state.endWaitOver { state.endWaiter = continuation }
                return state.endWaitOver
            }
            if over { return continuation.resume() }
            Task {
                for task in awaited { await task.value }
                let waiter: CheckedContinuation<Void, Never>? = self.state.withLock { state in
                    defer { state.endWaiter = nil }
                    state.endWaitOver = true
                    return state.endWaiter
                }
                waiter?.resume()
            }
        }
    }
}

/// Forwards the executor's "idle" event to the stage, which exists only after the executor.
private final class SignalRelay: Sendable {
    private let handler = Locked<(@Sendable () -> Void)?>(rawValue: nil)

    var target: (@Sendable () -> Void)? {
        get { handler.rawValue }
        set { handler.withLock { $0 = newValue } }
    }

    func fire() { target?() }
}

/// The settling rules, over the state the lock guards.
extension QueueStage.State {
    /// Another task escalated the one waiting on request `number`: it awaits that task (see
    /// ``QueueStage/park(_:instance:layout:)``).
    mutating func noteJoin(of number: Int, _ escalation: QueueStage.Escalation) {
        // Escalation only raises: one kept from before the numbering may be older than the
        // priority the request registered at.
        if let entry = parked[number] {
            parked[number]?.priority = max(entry.priority, UInt8(truncatingIfNeeded: escalation.priority.rawValue))
        }
        noteJoin(by: escalation.joiner, awaiting: .request(number))
    }

    /// Notes that `joiner`'s trigger awaits `work`, from an escalation of the task waiting on
    /// it: a request, or a wait on the clock. A trigger's own work escalating its own request or
    /// wait is no join, nor is a probe of the trigger that waits on the clock; a probe of the
    /// trigger that sent a request proves the trigger waits on it (noted as its join, with no
    /// other task joined).
    mutating func noteJoin(by joiner: Joiner, awaiting work: JoinedWork) {
        guard let trigger = joiner.trigger, live.contains(trigger) else { return }
        switch work {
        case .request(let number):
            // The request was answered: its task goes on (to its next request or a backoff)
            // with its escalation handler still installed. A later escalation of it names no
            // parked request, and must not replace evidence the joiner has (a probe reached the
            // parked request first, then this one, and left the joiner with none: the
            // twenty-eighth trial's outbox hung on the watchdog).
            guard parked[number] != nil else { return }
            let ownRequest = parked[number]?.send.trigger == trigger
            if ownRequest, joiner.tag != nil { return }
            joined[trigger] = number
            if !ownRequest { joinedTask[trigger] = parked[number]?.task }
        case .clockWait(let waiting, let task):
            guard trigger != waiting else { return }
            joinedClock[trigger] = waiting
            joinedTask[trigger] = task
        }
        guessedJoins.remove(trigger)
        triggers[trigger]?.everJoined = true
        joinsSeen = true
    }

    /// Whether `send` is known only by its launch: it came with no trigger tag, or from work a
    /// trigger of a live launch left running after it returned (a worker loop started at
    /// launch). While another trigger of that launch runs, it counts for that launch; when none
    /// runs, nothing awaits it (an orphan).
    func isLaunchLevel(_ send: ParkedSend) -> Bool {
        // Ended and not dead; a crash kills every trigger of its launch.
        guard let number = send.trigger, let generation = generations[number] else { return true }
        return !live.contains(number) && !deadInstances.contains(generation)
    }

    /// The highest priority of a request a trigger started now could join: one parked by a
    /// task of a live launch. A crashed launch's requests stay parked until the end, but no
    /// task of a later launch can await them (its process is gone), so they hold no rung.
    ///
    /// A task a live trigger joined runs at least at that trigger's priority (the join escalated
    /// it), whatever its request read when it registered: the joiner's priority counts too.
    /// (Without it, a request read 25 at registration while the pass that sent it had been
    /// escalated to 33 by its joiner; the next pass started at 33, joined unseen, and the
    /// schedule ended on the watchdog in 1 replay of 1,000.)
    ///
    /// So does the priority of every live trigger: a probe that raised a trigger raised the
    /// task it awaits, and a child that task creates afterwards registers its request, or its
    /// wait on the clock, at its creation priority, lower. (Without it, the twenty-eighth
    /// trial's outbox, whose pass awaits a drain in `Task { … }` that sends from a task group,
    /// parked a request at 25, or waited for its backoff, under a pass raised to 33; the next
    /// pass started at 33, its join of the drain escalated nothing, and the schedule ended on
    /// the watchdog in about 1 replay of 2.)
    var joinablePriority: UInt8 {
        var highest: UInt8 = 0
        // A loop, not `filter`/`map` closures: a closure capturing the inout state copies it.
        for parked in parked.values where !parked.send.isCallback && parked.priority > highest {
            if isDead(parked.send) { continue }
            highest = parked.priority
        }
        for trigger in live {
            if let priority = triggers[trigger]?.priority, priority > highest { highest = priority }
        }
        return highest
    }

    /// Whether a live trigger's evidence is a guess (see ``guessedJoins``).
    var reliesOnGuessedJoin: Bool {
        !guessedJoins.isDisjoint(with: live)
    }

    /// Whether `send` was made by a launch that crashed.
    func isDead(_ send: ParkedSend) -> Bool {
        if let trigger = send.trigger.flatMap({ triggers[$0] }), trigger.dead { return true }
        return deadInstances.contains(send.instance)
    }

    /// Whether the task with identity `task` is blocked on the timeline: a request it sent is
    /// parked, or it waits on the clock.
    func isBlocked(task: Int, waitingTasks: Set<Int>) -> Bool {
        if waitingTasks.contains(task) { return true }
        // A loop, not `contains { … }`: a closure capturing the inout state copies it.
        for entry in parked.values where entry.task == task && !isDead(entry.send) { return true }
        return false
    }

    func hasRunningTrigger(instance: Int) -> Bool {
        live.contains { triggers[$0]?.generation == instance }
    }

    /// The trigger to probe next, if one has no evidence while the triggers' work is idle (see
    /// ``QueueStage/settle()``).
    mutating func probes(
        executorIdle: Bool, clock: ManualClock, escalationAvailable: Bool
    ) -> [QueueStage.Probe] {
        guard executorIdle else { return [] }
        let asynchronous = parked.values.filter { !$0.send.isCallback }
        let waitPriority = clock.highestWaitPriority
        guard !asynchronous.isEmpty || waitPriority != nil else { return [] }
        let waiting = Set(clock.waitingTriggers.compactMap { $0 })
        let parkedBy = Set(parked.values.compactMap(\.send.trigger))
        let waitingTasks = joinedTask.isEmpty ? [] : clock.waitingTasks
        let epoch = QueueStage.ProbeEpoch(
            parkedVersion: parkedVersion, waitsBegun: clock.waitsBegun, endings: endings.count)
        for number in live.sorted() {
            guard var trigger = triggers[number], !parkedBy.contains(number), !waiting.contains(number),
                joined[number].map({ parked[$0] == nil }) ?? true,
                joinedClock[number].map({ !waiting.contains($0) }) ?? true, let task = tasks[number]
            else { continue }
            if let task = joinedTask[number], isBlocked(task: task, waitingTasks: waitingTasks) { continue }
            let floor = max(trigger.priority, joinablePriority, waitPriority ?? 0)
            if escalationAvailable, let rung = PriorityLadder.rung(above: floor) {
                guard trigger.probedAt != epoch else { continue }
                // One probe at a time: the next one's floor must see the priority this one raised.
                trigger.probedAt = epoch
                trigger.priority = rung
                triggers[number] = trigger
                return [QueueStage.Probe(trigger: number, task: task, priority: rung)]
            } else if trigger.everJoined {
                // Seen joining before, with no priority left to see it again: taken as joined
                // to its launch's newest parked request, or, with none parked, to a pass of its
                // launch that waits on the clock (a joined pass in its backoff).
                if let newest = asynchronous.filter({ $0.send.instance == trigger.generation })
                    .max(by: { $0.send.number < $1.send.number })
                {
                    joined[number] = newest.send.number
                    guessedJoins.insert(number)
                } else if let other = waiting.filter({ $0 != number && triggers[$0]?.generation == trigger.generation }).max() {
                    joinedClock[number] = other
                    guessedJoins.insert(number)
                }
            }
            triggers[number] = trigger
        }
        return []
    }

    /// Whether every live trigger has returned or has evidence it is blocked on the timeline.
    func isSettled(executorIdle: Bool, clock: ManualClock) -> Bool {
        guard executorIdle else { return false }
        // Requests that arrived with no tag came from the app's own machinery (a DispatchQueue,
        // an OperationQueue, a completion handler): with the kit's executor idle, the launch's
        // other triggers are taken as blocked behind them (a pass waiting for the operations its
        // OperationQueue runs). `waitForPendingWork(in:)` lets that machinery run out first.
        return unexplainedTriggers(clock: clock).allSatisfy { instance in
            parked.values.contains { $0.send.instance == instance && isLaunchLevel($0.send) }
        }
    }

    /// Whether a live trigger counts as blocked only because its launch has requests from the
    /// app's own machinery parked (see ``isSettled(executorIdle:clock:)``).
    func restsOnLaunchLevelSends(clock: ManualClock) -> Bool {
        hasUnexplainedTrigger(clock: clock)
    }

    /// Whether some live trigger has no evidence of its own (see ``unexplainedTriggers(clock:)``).
    func hasUnexplainedTrigger(clock: ManualClock) -> Bool {
        !unexplainedTriggers(clock: clock).isEmpty
    }

    /// The launches of the live triggers with no evidence of their own.
    private func unexplainedTriggers(clock: ManualClock) -> Set<Int> {
        let waiting = Set(clock.waitingTriggers.compactMap { $0 })
        let parkedBy = Set(parked.values.compactMap(\.send.trigger))
        let waitingTasks = joinedTask.isEmpty ? [] : clock.waitingTasks
        var unexplained: Set<Int> = []
        for trigger in live.compactMap({ triggers[$0] }) {
            if let request = joined[trigger.number], parked[request] != nil { continue }
            if let other = joinedClock[trigger.number], waiting.contains(other) { continue }
            if let task = joinedTask[trigger.number], isBlocked(task: task, waitingTasks: waitingTasks) {
                continue
            }
            if !parkedBy.contains(trigger.number) && !waiting.contains(trigger.number) {
                unexplained.insert(trigger.generation)
            }
        }
        return unexplained
    }
}
