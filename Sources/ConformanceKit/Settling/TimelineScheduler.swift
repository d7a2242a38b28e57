import Foundation

/// Runs a subject's triggers and parks every request it makes until the timeline answers,
/// and knows, by evidence and never by time, when nothing can move without an answer.
///
/// The async pager level's page source (`PageSource`, in PagerContracts) is built on it: a
/// load is a parked request, a user event is a trigger. ``settle()`` returns when every
/// trigger has returned or is provably blocked on a parked request (see ``SettleEvidence``),
/// so a negative check ("the stale page changed nothing") is safe. The write-queue harness
/// does not use it: it settles with its own stage (`QueueStage`, in WriteQueueContracts), which
/// follows the same rules for parked sends and adds waits on the manual clock and the
/// triggers' executor going idle. Both take their priorities, and park, through
/// ``PriorityLadder``.
///
/// Rules it follows (measured on the kit's machine, see the design notes):
/// - a request is registered before it parks; a registered, unparked request means "not settled";
/// - a new trigger starts one priority rung above every parked task (and above the lowest rung,
///   where the subject's own untagged work runs, once that work made a request), so that a later
///   join escalates the parked task and the escalation handler names the joiner;
/// - an untagged load that parks already raised to the priority of exactly one pending trigger
///   is awaited by that trigger's work (the await came before the load reached the source);
/// - a pending trigger without evidence is probed by raising its priority above every parked
///   task; if the escalation reaches a parked request inside that call, the trigger waits on it
///   (before a probe against untagged loads, the main queue is drained once, so a trigger on its
///   way to awaiting its load gets there first);
/// - when the five rungs run out, a trigger with a parked request of its own is assumed blocked,
///   and the transcript says so; so is a trigger whose event loop made exactly one load since it
///   started, when its probe would take the top rung or find none (the runtime does not always
///   show an await of a task that has not run yet);
/// - exploring (`levelsUntaggedWaits`), every wait on an event loop's load costs the rung a
///   probe would have, however it was seen, so a search takes the same course on every run.
package final class TimelineScheduler<Request: Sendable, Answer: Sendable>: Sendable {
    /// A request the subject made.
    package struct RequestRecord: Sendable {
        /// Its number, from 1, in registration order.
        package let number: Int
        /// What was asked.
        package let request: Request
        /// The trigger whose work made it, if any.
        package let trigger: Int?
        /// Whether the trigger's own task made it (rather than a task it spawned).
        package let fromTriggerTask: Bool
        /// Whether it is suspended waiting for its answer.
        package fileprivate(set) var parked: Bool
        /// How many answers it has been given.
        package fileprivate(set) var answers: Int = 0
        /// Whether the subject cancelled the task waiting on it.
        package fileprivate(set) var cancelled = false
        fileprivate var priority: UInt8
        fileprivate let isCallback: Bool
        /// The identity of the task that made it.
        fileprivate var taskIdentity: Int? = nil
        /// Whether its task ran above the priority it was created with when it registered: a
        /// task awaited it before it reached the source, so no escalation handler saw who.
        fileprivate var raisedBeforeParking = false
    }

    fileprivate struct TriggerState {
        let name: String
        var task: Task<Void, Never>?
        var identity: Int?
        var priority: UInt8
        /// Whether the trigger's body returned.
        var returned = false
        /// Whether every task that inherited the trigger's tag has ended (the body's and any
        /// `Task {}` it started without awaiting).
        var workEnded = false
        /// A completion handler the kit calls: work it leaves running (a `Task { @MainActor in
        /// … }` that handles the result) is part of handling the answer, not an adapter error.
        var isCompletion = false
        var error: String?
        var evidence: SettleEvidence?
        var probedAt = -1
        /// Whether it started on the top rung: a load it spawns and awaits could be found by no
        /// probe, so such a load is settled by assumption whatever the runtime shows (a load
        /// spawned there was sometimes seen joined and sometimes not, and a search must take the
        /// same course on every replay).
        var startedWithoutProbeRung = false
        /// How many requests had registered when it started.
        var requestsBeforeStart = 0
        /// Whether its wait on an event loop's load has spent its probe rung (see
        /// `levelUntaggedWait`).
        var levelled = false
    }

    /// Everything the triggers, the requests and the timeline share, behind one lock.
    fileprivate struct State {
        var records: [RequestRecord] = []
        var continuations: [Int: CheckedContinuation<Answer, any Error>] = [:]
        var earlyAnswers: [Int: Result<Answer, any Error>] = [:]
        var preAnswerProvider: (@Sendable (Int, Request) -> Result<Answer, any Error>?)?
        var preAnswersCallbacks = false
        var preAnswered: Set<Int> = []
        /// Completion handlers called synchronously at registration since settling last
        /// drained the main queue for them (see `drainAfterSynchronousCallbacks`).
        var synchronousCallbacksUndrained = 0
        var callbacks: [Int: @Sendable (Result<Answer, any Error>) -> Void] = [:]
        var triggers: [Int: TriggerState] = [:]
        var nextTrigger = 1
        var version = 0
        var parkedVersion = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
        var probing: Int?
        var problems: [UnawaitedRequest] = []
        /// For each completion-handler trigger the kit started, the request it answers.
        var completionOrigins: [Int: Int] = [:]
        /// For each trigger, the parked request that work it spawned (an intermediate task, such
        /// as a debouncer's) joined: the trigger may wait on that work, so a probe can tell.
        var inheritedJoins: [Int: Int] = [:]
        /// Whether a trigger was found waiting on a load no trigger started (an event loop's):
        /// only a probe ties a trigger to such a load, and without a rung for it the kit could
        /// not even assume (see `nextTriggerUnobservable`).
        var untaggedWaitSeen = false
        /// Whether work no trigger started (an event loop the subject created at init, which
        /// the drivers create on the lowest rung) made a request: a trigger then starts above
        /// that rung, so that its await of such a load escalates it.
        var untaggedWorkSeen = false
        /// The `parkedVersion` at which settling last drained the main queue before probing a
        /// trigger against untagged loads.
        var mainQueueDrainedAt = -1
        /// Set by `evaluate` when a probe against untagged loads waits for that drain.
        var needsMainQueueDrain = false
        /// The `parkedVersion` at which settling last let work it cannot see run out before
        /// taking a trigger as blocked by assumption (see `needsUnseenWorkToRunOut`).
        var unseenWorkRanOutAt = -1
        /// Set by `evaluate` when an assumption waits for queued work to run out: the trigger's
        /// own task may still be on its way to awaiting the load, and its next step (an await
        /// that escalates nothing on the top rung) is no event.
        var needsUnseenWorkToRunOut = false
        /// How many times a trigger was taken as blocked by assumption, the priorities spent.
        var assumptions = 0
        var observations: [String] = []
    }

    private let state = Locked(rawValue: State())

    /// What the subject says about work of its own a completion handler hands on (see
    /// ``setCompletionBarrier(_:)``).
    private let completionBarrier = Locked<(@Sendable () async -> Void)?>(rawValue: nil)

    /// Whether escalation evidence (joined, probed) is available on this platform.
    package let usesEscalation: Bool

    /// Whether a trigger found waiting on an event loop's load always spends the same rungs,
    /// whatever the runtime showed (see `levelUntaggedWait`): a search must take the same
    /// course on every replay; a fixed timeline keeps the rungs the evidence saved.
    private let levelsUntaggedWaits: Bool

    /// Where triggers that start on the top rung run, so the kit sees when their work is idle.
    private let topRungExecutor = TriggerExecutor()

    /// Creates a scheduler.
    /// - Parameter levelsUntaggedWaits: Whether every wait on a load no trigger started costs
    ///   the same rungs, however it was seen (the explorer's setting).
    package init(levelsUntaggedWaits: Bool = false) {
        usesEscalation = PriorityLadder.escalationAvailable
        self.levelsUntaggedWaits = levelsUntaggedWaits
    }

    /// Sets what a completion handler's trigger awaits after the handler returned and before
    /// it drains the main queue: the subject's own barrier, for a completion that hands its
    /// work to a `DispatchQueue` of its own (decoding off the main thread) before it hops to the
    /// main actor. Task-local tags do not travel through such a queue, so only the subject can
    /// say when that work has run.
    package func setCompletionBarrier(_ barrier: @escaping @Sendable () async -> Void) {
        completionBarrier.withLock { $0 = barrier }
    }

    // MARK: - Triggers

    /// Starts `body` as trigger `name` in its own task, tagged so its requests name it.
    /// - Returns: The trigger's number.
    @discardableResult
    package func startTrigger(_ name: String, _ body: @escaping @Sendable () async throws -> Void)
        -> Int
    {
        startTrigger(name, isCompletion: false, body)
    }

    private func startTrigger(
        _ name: String, isCompletion: Bool, _ body: @escaping @Sendable () async throws -> Void
    ) -> Int {
        let (number, priority, onTopRung) = state.withLock { state in
            let number = state.nextTrigger
            state.nextTrigger += 1
            let priority = PriorityLadder.startingRung(above: state.triggerFloor)
            var trigger = TriggerState(name: name, priority: priority)
            trigger.requestsBeforeStart = state.records.count
            trigger.isCompletion = isCompletion
            trigger.startedWithoutProbeRung = usesEscalation && PriorityLadder.rung(above: priority) == nil
            state.triggers[number] = trigger
            return (number, priority, trigger.startedWithoutProbeRung)
        }
        let executor = topRungExecutor
        let task = Task(priority: TaskPriority(rawValue: priority)) {
            let identity = currentTaskIdentity() ?? 0
            self.update { $0.triggers[number]?.identity = identity }
            var failure: String? = nil
            let lifetime = TriggerLifetime { [weak self] in
                self?.update { $0.triggers[number]?.workEnded = true }
            }
            let tag = TriggerTag(trigger: number, taskIdentity: identity, lifetime: lifetime)
            do {
                if onTopRung {
                    try await executor.run { try await TriggerTag.$current.withValue(tag, operation: body) }
                } else {
                    try await TriggerTag.$current.withValue(tag, operation: body)
                }
            } catch {
                failure = String(describing: error)
            }
            self.update { state in
                state.triggers[number]?.returned = true
                state.triggers[number]?.error = failure
                state.triggers[number]?.evidence = nil
                if !isCompletion { state.noteUnawaitedRequests(of: number) }
            }
        }
        state.withLock { $0.triggers[number]?.task = task }
        return number
    }

    /// Why a trigger started now might not be observable, or `nil` when what it does is seen
    /// or, at worst, settled by an assumption the transcript names: it starts on a rung
    /// strictly above every parked task, so a join escalates the parked task.
    ///
    /// Escalation only raises a task's priority and only five raw priorities exist, so every
    /// join of one parked load spends a rung: a load joined by four triggers in a row sits at
    /// the top rung, and a fifth trigger that joins it neither parks, returns nor escalates
    /// anything. The contracts' timelines stay far below that; a generated schedule can reach
    /// it, so the explorer asks before each trigger and skips the ones the kit could not see.
    /// A trigger that spawns its load and awaits it needs a second rung, for the probe; with
    /// none left it is settled by assumption, which the explorer undoes by replaying the
    /// schedule without it (`ScheduleExecution.restart`), so it is not skipped in advance: a
    /// trigger that returns at once or joins a load is still seen. Only once a trigger was
    /// found waiting on a load no trigger started (an event loop's) is that second rung kept,
    /// since no assumption covers it.
    /// Without escalation (older toolchains and OSes) a trigger is observable only while no
    /// async request is parked.
    package var nextTriggerUnobservable: String? {
        state.withLock { state in
            let parked = state.records.filter { $0.parked && !$0.isCallback }
            guard !parked.isEmpty else { return nil }
            guard usesEscalation else {
                return "a request is parked and priority escalation is unavailable here, so a trigger that joins its load could not be seen"
            }
            let floor = state.triggerFloor
            // One rung for the trigger, and one for a probe once a trigger was found waiting on
            // untagged work: nothing but a probe ties it to that work.
            guard PriorityLadder.rungsLeft(above: floor) < (state.untaggedWaitSeen ? 2 : 1) else { return nil }
            let top = parked.filter { $0.priority == floor }.map { "#\($0.number)" }.joined(separator: ", ")
            return "request \(top) is parked at priority \(floor) after earlier joins and probes; "
                + "a trigger that joined its load now could not be seen (only the raw priorities "
                + PriorityLadder.rungs.map(String.init).joined(separator: ", ") + " exist)"
        }
    }

    /// How many times so far a trigger was taken as blocked by assumption (``SettleEvidence``'s
    /// `assumed`: the priorities ran out) rather than by evidence. A search for findings stops a
    /// schedule there: no verdict of its should rest on a guess.
    package var assumptionCount: Int { state.withLock { $0.assumptions } }

    /// Whether trigger `number` has returned, and the error it threw, if any.
    package func outcome(ofTrigger number: Int) -> (returned: Bool, error: String?) {
        state.withLock { ($0.triggers[number]?.returned ?? false, $0.triggers[number]?.error) }
    }

    /// The raw task priority trigger `number` runs at now (its rung, or a probe's).
    package func priority(ofTrigger number: Int) -> UInt8? {
        state.withLock { $0.triggers[number]?.priority }
    }

    /// The evidence that trigger `number` is blocked, if it has any now.
    package func evidence(ofTrigger number: Int) -> SettleEvidence? {
        state.withLock { $0.triggers[number]?.evidence }
    }

    // MARK: - Requests

    /// Registers `request` and suspends until the timeline answers it.
    ///
    /// Cancelling the waiting task is noticed but does not answer the request: the timeline
    /// decides what a cancelled request's completion sees (cancellation is not proof).
    package func park(_ request: Request) async throws -> Answer {
        // The handler is installed before the request is registered: a join that escalates
        // this task after registration must always produce an event. One that comes while the
        // request is registering, before its number is known, is kept and noted once it is (a
        // join dropped there left the load at its creation priority, the joiner unseen, and the
        // event-loop models' P5 and P8 on the watchdog, 1 run in 30).
        let escalations = EscalationsBeforeRegistration<Escalation>()
        return try await PriorityLadder.observingEscalation {
            let number = self.register(request, callback: nil)
            for escalation in escalations.register(number) { self.noteEscalation(escalation, of: number) }
            return try await self.suspend(number)
        } onEscalated: { new in
            let escalation = Escalation(
                priority: new, tag: TriggerTag.current, task: currentTaskIdentity(),
                probing: self.state.withLock { $0.probing })
            if let number = escalations.deliver(escalation) { self.noteEscalation(escalation, of: number) }
        }
    }

    /// Registers `request` for a completion-handler API: it counts as parked at once, and each
    /// answer calls `completion` from a trigger of its own (so a completion that runs twice
    /// can be delivered twice).
    /// - Returns: The request's number.
    @discardableResult
    package func parkCallback(
        _ request: Request, completion: @escaping @Sendable (Result<Answer, any Error>) -> Void
    ) -> Int {
        register(request, callback: completion)
    }

    /// Answers request `number`.
    /// - Returns: `false` when the request cannot take another answer (an async request that
    ///   was already answered: a continuation resumes once).
    @discardableResult
    package func answer(_ number: Int, with result: Result<Answer, any Error>) -> Bool {
        let delivery: Delivery = update { state in
            guard let index = state.records.firstIndex(where: { $0.number == number }) else {
                return .refused
            }
            if let callback = state.callbacks[number] {
                state.records[index].answers += 1
                return .callback(callback)
            }
            guard state.records[index].answers == 0 else { return .refused }
            state.records[index].answers = 1
            state.records[index].parked = false
            state.parkedVersion += 1
            for key in state.triggers.keys where state.triggers[key]?.evidence?.request == number {
                // A join stays on the task it joined: `evaluate` moves it to that task's next
                // parked request, or drops it when the trigger moves on.
                if case .joined = state.triggers[key]?.evidence { continue }
                state.triggers[key]?.evidence = nil
            }
            if let continuation = state.continuations.removeValue(forKey: number) {
                return .resume(continuation)
            }
            state.earlyAnswers[number] = result
            return .early
        }
        switch delivery {
        case .resume(let continuation):
            continuation.resume(with: result)
        case .callback(let completion):
            let barrier = completionBarrier.rawValue
            let trigger = startTrigger("completion handler of request #\(number)", isCompletion: true) {
                completion(result)
                // Work the handler handed to a queue of the subject's own has run, and queued
                // what it queues on the main queue.
                await barrier?()
                // Work the handler queued on the main queue (`DispatchQueue.main.async`, what
                // URLSession-based layers do) runs before this returns: the answer is handled
                // before the next check. Two rounds cover a hop that hops again.
                await drainMainQueue()
            }
            state.withLock { $0.completionOrigins[trigger] = number }
        case .early:
            break
        case .refused:
            return false
        }
        return true
    }

    /// Answers chosen requests at the moment they register, so the subject's load returns
    /// without ever parking ("the response was already available"). `provider` receives each
    /// request's number and content and returns its answer, or `nil` to park it as usual.
    /// - Parameter callbacksSynchronously: Whether a completion-handler request is answered too,
    ///   synchronously inside the call that made it (only for code whose loading layer may do
    ///   that, such as a cache); otherwise completion-handler requests park as usual.
    package func preAnswer(
        callbacksSynchronously: Bool,
        using provider: @escaping @Sendable (Int, Request) -> Result<Answer, any Error>?
    ) {
        state.withLock { state in
            state.preAnswerProvider = provider
            state.preAnswersCallbacks = callbacksSynchronously
        }
    }

    /// Whether request `number` was answered at registration by
    /// ``preAnswer(callbacksSynchronously:using:)``.
    package func wasPreAnswered(_ number: Int) -> Bool {
        state.withLock { $0.preAnswered.contains(number) }
    }

    /// Whether request `later` comes from the same work as request `earlier`: made by the same
    /// trigger, by the completion handler that answered `earlier`, or by untagged work (a
    /// main-queue hop) while `earlier`'s answer was handled. A pager that fills the screen
    /// chains its follow-ups this way.
    package func isChained(_ later: Int, after earlier: Int) -> Bool {
        state.withLock { state in
            guard later >= 1, later <= state.records.count, earlier >= 1, earlier <= state.records.count
            else { return false }
            guard let trigger = state.records[later - 1].trigger else { return true }
            return trigger == state.records[earlier - 1].trigger
                || state.completionOrigins[trigger] == earlier
        }
    }

    /// Every request so far, in order.
    package var requests: [RequestRecord] { state.withLock { $0.records } }

    /// Adapter mistakes seen so far (requests from work of a trigger that had returned).
    package var adapterProblems: [UnawaitedRequest] { state.withLock { $0.problems } }

    /// Takes the observations made since the last call (cancellations noticed, assumptions
    /// made), for the transcript.
    package func takeObservations() -> [String] {
        state.withLock { state in
            defer { state.observations = [] }
            return state.observations
        }
    }

    /// What the scheduler sees, for a watchdog message: open requests and pending triggers.
    package var stateDescription: String {
        state.withLock { state in
            let open = state.records.filter { $0.answers == 0 }.map { record in
                "request #\(record.number) \(record.request) "
                    + (record.parked ? "parked" : "registered, not yet parked")
                    + " at priority \(record.priority)"
                    + (record.trigger.map { " (from trigger #\($0))" } ?? " (untagged work)")
                    + (record.cancelled ? ", cancelled" : "")
            }
            let pending = state.triggers.keys.sorted().compactMap { number -> String? in
                guard let trigger = state.triggers[number] else { return nil }
                if trigger.returned {
                    guard !trigger.workEnded else { return nil }
                    return "trigger #\(number) \"\(trigger.name)\" returned, but a task it started "
                        + "(and did not await) is still running"
                }
                return "trigger #\(number) \"\(trigger.name)\" at priority \(trigger.priority), "
                    + (trigger.evidence.map { "\($0)" } ?? "no evidence it is blocked")
                    + state.continuationBridgeHint(for: number)
            }
            return (open.isEmpty ? "no open request" : open.joined(separator: "; ")) + "; "
                + (pending.isEmpty ? "no pending trigger" : pending.joined(separator: "; "))
        }
    }

    // MARK: - Settling

    /// Returns when every trigger has returned or is provably blocked on a parked request,
    /// and every registered request is parked. Waits only for events, never for time.
    package func settle() async {
        var drainsForCallbacks = 0
        while true {
            let (seen, done, probes) = update { state in
                state.evaluate(usesEscalation: usesEscalation, levelsUntaggedWaits: levelsUntaggedWaits)
            }
            if done {
                guard drainsForCallbacks < Self.drainsForCallbacksPerSettle, await drainAfterSynchronousCallbacks()
                else { return }
                drainsForCallbacks += 1
                continue
            }
            if !probes.isEmpty {
                for probe in probes { run(probe) }
                continue
            }
            if await runIfAsked(\.needsMainQueueDrain, markingDoneIn: \.mainQueueDrainedAt, drainMainQueue) {
                continue
            }
            if await runIfAsked(\.needsUnseenWorkToRunOut, markingDoneIn: \.unseenWorkRanOutAt, letTopRungWorkRunOut) {
                continue
            }
            await waitForChange(from: seen)
        }
    }

    /// How many times one settle drains the main queue after completion handlers called
    /// synchronously: enough for a screen filled one page at a time, and an end for a pager
    /// that chains loads for ever (its next checks see it).
    private static var drainsForCallbacksPerSettle: Int { 64 }

    /// Drains the main queue when a completion handler was called synchronously, inside the
    /// call that asked for it (an answer already available), since the last drain.
    ///
    /// No trigger of the kit runs such a handler, so nothing else waits for what it handed on:
    /// a UIKit-era controller hops to the main queue with `DispatchQueue.main.async` and, to
    /// fill the screen, asks for the next page from there, which hops again. Without the drain
    /// the kit checked the list somewhere along that chain, and the chain went on beside the
    /// next step (the thirty-fourth outside trial's search controller: unreproduced I3 failures
    /// in 8 of 12 seeded runs, each run different). The caller settles again after the drain,
    /// so a hop that asked for another page is drained in turn.
    /// - Returns: Whether it drained.
    private func drainAfterSynchronousCallbacks() async -> Bool {
        let undrained = state.withLock { state in
            defer { state.synchronousCallbacksUndrained = 0 }
            return state.synchronousCallbacksUndrained
        }
        guard undrained > 0 else { return false }
        await drainMainQueue()
        return true
    }

    /// Runs `work` when `evaluate` asked for it (`request` set), then records in `done` the
    /// `parkedVersion` it was asked at, so it is not asked again until a request parks or is
    /// answered.
    /// - Returns: Whether `work` ran.
    private func runIfAsked(
        _ request: WritableKeyPath<State, Bool>, markingDoneIn done: WritableKeyPath<State, Int>,
        _ work: () async -> Void
    ) async -> Bool {
        let askedAt: Int? = state.withLock { state in
            defer { state[keyPath: request] = false }
            return state[keyPath: request] ? state.parkedVersion : nil
        }
        guard let askedAt else { return false }
        await work()
        update { $0[keyPath: done] = askedAt }
        return true
    }

    /// Returns once the tasks of triggers that started on the top rung have stopped moving, before
    /// one of them is taken as blocked on the load it spawned.
    ///
    /// Such a trigger cannot be probed, and once its load parked, its own task's next steps are
    /// jobs that raise no event: the sixth trial's `ClockDebouncedSearchModel` awaits its debounce
    /// task, reads the load task on the main actor and awaits it at the same priority. Taken as
    /// blocked at once, the next query change could replace the load task first; the trigger
    /// then awaited the new one and returned with its own load open, a false "did not await"
    /// (P5 failed in 2 of 40 runs of the implementation beside a running matrix; 0 of 300
    /// since). Those triggers run on a ``WatchedTaskExecutor``: this waits until the main
    /// queue is drained and that executor holds no job, twice in a row with nothing enqueued in
    /// between, however long the operating system holds a thread. Where the runtime has no task
    /// executors it runs rounds of barriers, which a preempted thread can outlast.
    private func letTopRungWorkRunOut() async {
        if topRungExecutor.isWatching {
            var quietRounds = 0
            for _ in 0..<64 where quietRounds < 2 {
                let before = topRungExecutor.enqueuedJobs
                await drainQueuedWork()
                await topRungExecutor.waitUntilIdle()
                quietRounds = topRungExecutor.enqueuedJobs == before ? quietRounds + 1 : 0
            }
        } else {
            for _ in 0..<4 { await drainQueuedWork() }
        }
    }

    /// Answers everything still open with a cancellation error and waits for every trigger to
    /// return, so no continuation leaks. Call it at the end of every timeline.
    package func finish() async {
        while true {
            let (open, allReturned, seen) = state.withLock { state in
                (
                    state.records.filter { $0.answers == 0 }.map(\.number),
                    state.triggers.values.allSatisfy(\.returned),
                    state.version
                )
            }
            for number in open { answer(number, with: .failure(CancellationError())) }
            if open.isEmpty && allReturned { break }
            if open.isEmpty { await waitForChange(from: seen) }
        }
        let tasks = state.withLock { $0.triggers.values.compactMap(\.task) }
        for task in tasks { await task.value }
        // The barrier holds the subject, whose source holds this scheduler: kept, that cycle
        // kept every schedule's subject, scheduler and trigger tasks in memory (about 380 KB a
        // schedule of the explorer's async view model).
        completionBarrier.withLock { $0 = nil }
    }

    // MARK: - Evidence

    /// Marks the trigger that created `token` as waiting in a completion-handler wrapper,
    /// unless the handler already ran.
    ///
    /// Call it only after the subject's synchronous call returned; the handler calls
    /// ``callbackFired(_:)`` with the same token, before or after this call.
    /// - Parameter token: The wait's token, created in the trigger's task.
    package func callbackWaitBegan(token: CallbackToken) {
        update { state in
            // The token's lock is only ever taken inside the scheduler's, never the other way.
            token.progress.withLock { progress in
                guard !progress.fired, let trigger = token.trigger else { return }
                state.triggers[trigger]?.evidence = .callback
                progress.waiting = true
            }
        }
    }

    /// Marks a completion handler as called: its trigger is running again.
    package func callbackFired(_ token: CallbackToken) {
        update { state in
            token.progress.withLock { progress in
                progress.fired = true
                if progress.waiting, let trigger = token.trigger,
                    state.triggers[trigger]?.evidence == .callback
                {
                    state.triggers[trigger]?.evidence = nil
                }
            }
        }
    }

    /// Identifies one wait in the kit's completion-handler wrapper.
    package final class CallbackToken: Sendable {
        let trigger: Int?
        /// Whether the wait began, and whether the completion handler was called.
        let progress = Locked(rawValue: (waiting: false, fired: false))

        /// A token for the trigger running now.
        package init() {
            trigger = TriggerTag.current?.trigger
        }
    }

    // MARK: - Internals

    private enum Delivery {
        case resume(CheckedContinuation<Answer, any Error>)
        case callback(@Sendable (Result<Answer, any Error>) -> Void)
        case early
        case refused
    }

    fileprivate struct Probe {
        let trigger: Int
        let task: Task<Void, Never>
        let priority: UInt8
    }

    private func register(
        _ request: Request, callback: (@Sendable (Result<Answer, any Error>) -> Void)?
    ) -> Int {
        let tag = TriggerTag.current
        let identity = currentTaskIdentity()
        let priority = UInt8(truncatingIfNeeded: Task.currentPriority.rawValue)
        let base = Task.basePriority.map { UInt8(truncatingIfNeeded: $0.rawValue) } ?? priority
        let number = recordRegistration(
            request, tag: tag, identity: identity, priority: priority,
            raisedBeforeParking: priority > base && callback == nil, callback: callback)
        let provider = state.withLock { state in
            callback == nil || state.preAnswersCallbacks ? state.preAnswerProvider : nil
        }
        if let provider, let result = provider(number, request) {
            _ = state.withLock { $0.preAnswered.insert(number) }
            if let callback {
                // An answer already available reaches a completion handler synchronously,
                // inside the call that asked for it, as a cached response does.
                update { state in
                    if let index = state.records.firstIndex(where: { $0.number == number }) {
                        state.records[index].answers += 1
                    }
                    state.synchronousCallbacksUndrained += 1
                }
                callback(result)
            } else {
                answer(number, with: result)
            }
        }
        return number
    }

    private func recordRegistration(
        _ request: Request, tag: TriggerTag?, identity: Int?, priority: UInt8, raisedBeforeParking: Bool,
        callback: (@Sendable (Result<Answer, any Error>) -> Void)?
    ) -> Int {
        update { state in
            let number = state.records.count + 1
            if let trigger = tag?.trigger, let owner = state.triggers[trigger], owner.returned,
                !owner.isCompletion
            {
                state.problems.append(UnawaitedRequest(request: number, trigger: owner.name, moment: .madeAfterReturn))
            }
            var record = RequestRecord(
                number: number, request: request, trigger: tag?.trigger,
                fromTriggerTask: tag != nil && tag?.taskIdentity == identity,
                parked: callback != nil, priority: priority, isCallback: callback != nil)
            record.taskIdentity = identity
            record.raisedBeforeParking = raisedBeforeParking
            state.records.append(record)
            if tag == nil && callback == nil { state.untaggedWorkSeen = true }
            if let trigger = record.trigger, !record.fromTriggerTask, callback == nil,
                let owner = state.triggers[trigger], owner.startedWithoutProbeRung, !owner.isCompletion,
                !owner.returned, owner.evidence?.request == nil
            {
                state.triggers[trigger]?.evidence = .assumed(request: number)
                state.assumptions += 1
                state.observations.append(
                    "\"\(owner.name)\" is assumed blocked on request #\(number): it started on the top "
                        + "task priority, so no probe could find a load it spawned")
            }
            if let callback {
                state.callbacks[number] = callback
                state.parkedVersion += 1
            }
            return number
        }
    }

    private func suspend(_ number: Int) async throws -> Answer {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let early: Result<Answer, any Error>? = update { state in
                    if let early = state.earlyAnswers.removeValue(forKey: number) { return early }
                    state.continuations[number] = continuation
                    guard let index = state.records.firstIndex(where: { $0.number == number }) else {
                        return nil
                    }
                    state.records[index].parked = true
                    state.parkedVersion += 1
                    let record = state.records[index]
                    if record.fromTriggerTask, let trigger = record.trigger {
                        state.triggers[trigger]?.evidence = .parked(request: number)
                    }
                    return nil
                }
                if let early { continuation.resume(with: early) }
            }
        } onCancel: {
            self.update { state in
                guard let index = state.records.firstIndex(where: { $0.number == number }),
                    !state.records[index].cancelled
                else { return }
                state.records[index].cancelled = true
                state.observations.append("the subject cancelled the task waiting on request #\(number)")
            }
        }
    }

    /// An escalation of the task waiting on a request, as its handler saw it: the handler runs
    /// on the escalating task, so its tag and identity name the joiner.
    fileprivate struct Escalation: Sendable {
        let priority: TaskPriority
        let tag: TriggerTag?
        let task: Int?
        /// The trigger the kit was probing when it came (a probe escalates with no tag).
        let probing: Int?
    }

    private func noteEscalation(_ escalation: Escalation, of number: Int) {
        let (priority, tag, identity) = (escalation.priority, escalation.tag, escalation.task)
        update { state in
            // Escalation only raises; two handlers on two threads may run in either order.
            if let index = state.records.firstIndex(where: { $0.number == number }) {
                state.records[index].priority = max(
                    state.records[index].priority, UInt8(truncatingIfNeeded: priority.rawValue))
            }
            // The handler runs on the escalating task. A probe escalates from the kit's own
            // context, which carries no tag; an escalation with a tag is a join by that
            // trigger's work, never the probe's, even while a probe of another trigger runs.
            if let tag {
                guard let joiner = state.triggers[tag.trigger], !joiner.returned else { return }
                if joiner.identity == identity {
                    state.triggers[tag.trigger]?.evidence = .joined(request: number)
                    state.noteWait(on: number)
                } else {
                    // Work the trigger spawned (an intermediate task) joined the load: the
                    // trigger may be waiting on that work; a probe will tell.
                    state.inheritedJoins[tag.trigger] = number
                    // A probe that reached that work while it was still on its way to
                    // suspending on the load (it had escalated the load, not yet recorded its
                    // wait) stops there; the runtime passes the probe's priority on to the load
                    // once the work suspends, from the work's own context: this call. That is
                    // the probe's evidence, late. (Missing it left a serial request queue and a
                    // debounced view model on the watchdog in 1 run in 50 and 1 in 4.)
                    if joiner.evidence == nil, joiner.probedAt == state.parkedVersion,
                        joiner.priority == UInt8(truncatingIfNeeded: priority.rawValue)
                    {
                        state.triggers[tag.trigger]?.evidence = .probed(request: number)
                    }
                }
            } else if let probing = escalation.probing {
                state.triggers[probing]?.evidence = .probed(request: number)
                state.noteWait(on: number)
            }
        }
    }

    private func run(_ probe: Probe) {
        guard usesEscalation else { return }
        state.withLock { $0.probing = probe.trigger }
        PriorityLadder.escalate(probe.task, to: probe.priority)
        update { $0.probing = nil }
    }

    private func waitForChange(from seen: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let changed = state.withLock { state in
                if state.version != seen { return true }
                state.waiters.append(continuation)
                return false
            }
            if changed { continuation.resume() }
        }
    }

    /// Runs `body` under the lock, counts it as an event and wakes every waiter.
    @discardableResult
    private func update<T>(_ body: (inout State) -> T) -> T {
        let (result, waking) = state.withLock { state in
            let result = body(&state)
            state.version += 1
            defer { state.waiters = [] }
            return (result, state.waiters)
        }
        for waiter in waking { waiter.resume() }
        return result
    }
}

/// The settling rules, over the state the lock guards.
extension TimelineScheduler.State {
    /// Records an adapter problem for each request the spawned work of trigger `number` has
    /// open while the trigger's body returns.
    mutating func noteUnawaitedRequests(of number: Int) {
        guard let owner = triggers[number] else { return }
        for record in records
        where record.trigger == number && !record.fromTriggerTask && record.answers == 0
            && !record.isCallback
        {
            problems.append(UnawaitedRequest(request: record.number, trigger: owner.name, moment: .openAtReturn))
        }
    }

    /// For a watchdog message: why trigger `number`, with no evidence, may be blocked where the
    /// kit cannot look. Its work made a completion-handler request that is still open and then
    /// went on waiting: most likely on a continuation that handler resumes (an async bridge over
    /// a callback client), and a task suspended on a continuation escalates nothing, so no probe
    /// can find it.
    func continuationBridgeHint(for number: Int) -> String {
        guard let trigger = triggers[number], trigger.evidence == nil, !trigger.isCompletion,
            let record = records.last(where: { $0.trigger == number && $0.isCallback && $0.answers == 0 })
        else { return "" }
        return " (its work made request #\(record.number) through a completion handler and waits; "
            + "if it awaits a continuation that handler resumes, the kit cannot see that wait: "
            + "give the subject an async loader over `source.load` where it bridges its callback "
            + "client, see \"A continuation bridge\" in Docs/Pagers.md)"
    }

    /// Whether `trigger`'s own task is shown waiting on an open request other than `number`
    /// (parked, joined, probed or raised evidence), or in a completion-handler wrapper.
    func isWaitingElsewhere(_ trigger: TimelineScheduler.TriggerState, than number: Int) -> Bool {
        switch trigger.evidence {
        case .callback: true
        case .parked(let request), .joined(let request), .probed(let request), .raisedBeforeParking(let request):
            request != number && isOpenParked(request)
        case .assumed, nil: false
        }
    }

    /// The priority a new trigger starts strictly above: every parked task's, and the lowest
    /// rung once untagged work made a request (see `untaggedWorkSeen`).
    var triggerFloor: UInt8 {
        let parked = records.filter { $0.parked && !$0.isCallback }.map(\.priority).max() ?? 0
        return untaggedWorkSeen ? max(parked, PriorityLadder.rungs[0]) : parked
    }

    /// The open parked request that the task which made request `number` made after it, if any.
    func nextParking(after number: Int) -> Int? {
        guard let identity = records.first(where: { $0.number == number })?.taskIdentity else {
            return nil
        }
        return records.last { $0.number > number && $0.taskIdentity == identity && $0.parked && $0.answers == 0 && !$0.isCallback }?.number
    }

    /// Whether request `number` is parked and, for a completion-handler request, not answered
    /// yet (its evidence lapses with the first answer).
    func isOpenParked(_ number: Int) -> Bool {
        records.contains { $0.number == number && $0.parked && (!$0.isCallback || $0.answers == 0) }
    }

    /// Whether a trigger whose body returned has nothing left running: every task that inherited
    /// its tag has ended, or that work is parked in the source (a completion handler's
    /// follow-up load; for any other trigger, a request already reported as an adapter problem).
    func leftoverIsSettled(_ number: Int, _ trigger: TimelineScheduler.TriggerState) -> Bool {
        if trigger.workEnded { return true }
        return records.contains { $0.trigger == number && $0.answers == 0 && ($0.parked || $0.isCallback) }
    }

    /// Notes that a trigger was found waiting on request `number`. If no trigger made it (an
    /// event loop's load), the next trigger of this subject may take its escalation before the
    /// load parks, unseen, and need a probe's rung too (see `nextTriggerUnobservable`).
    mutating func noteWait(on number: Int) {
        if records.indices.contains(number - 1), records[number - 1].trigger == nil { untaggedWaitSeen = true }
    }

    /// Whether request `number` was made by work no trigger started (an event loop's), after
    /// `trigger` started: the loop's answer to its event.
    func isFreshUntagged(_ number: Int, for trigger: TimelineScheduler.TriggerState) -> Bool {
        guard records.indices.contains(number - 1) else { return false }
        let record = records[number - 1]
        return record.trigger == nil && !record.isCallback && record.number > trigger.requestsBeforeStart
    }

    /// Spends on trigger `number`, found waiting on its event loop's load without a probe (the
    /// load parked already raised, or was joined after it parked), the rung a probe would
    /// have: which of those the runtime shows varies from run to run (an escalation of a task
    /// that has not run yet is kept about half the time), and a load's priority decides where
    /// later triggers start and whether they can be seen. Returns the probe to run, or, where
    /// the probe would have taken the top rung or found none, counts an assumption, as the
    /// trigger would have been assumed blocked without the evidence.
    mutating func levelUntaggedWait(
        of number: Int, _ trigger: inout TimelineScheduler.TriggerState
    ) -> TimelineScheduler.Probe? {
        trigger.levelled = true
        if let rung = PriorityLadder.rung(above: trigger.priority), rung != PriorityLadder.rungs.last,
            let task = trigger.task
        {
            trigger.priority = rung
            return TimelineScheduler.Probe(trigger: number, task: task, priority: rung)
        }
        assumptions += 1
        observations.append(
            "\"\(trigger.name)\" waits on its event loop's load, but is counted as an assumption: "
                + "without the runtime's evidence it would have been assumed blocked, and a search "
                + "must take the same course either way")
        return nil
    }

    /// The priority the task waiting on `record` runs at, as far as the kit can tell: what it
    /// registered with, or the priority of a pending trigger (other than `excluded`) whose
    /// evidence says it awaits it, if higher. Awaiting a task raises it to the awaiter's
    /// priority, but the runtime does not always show it (a task escalated before it first
    /// ran may report its creation priority), so the record alone can read low.
    func effectivePriority(of record: TimelineScheduler.RequestRecord, besides excluded: Int) -> UInt8 {
        var priority = record.priority
        for (number, trigger) in triggers
        where number != excluded && !trigger.returned && trigger.evidence?.request == record.number {
            priority = max(priority, trigger.priority)
        }
        return priority
    }

    /// The one untagged load trigger `number` can be assumed blocked on once no priority is left
    /// to probe it, or `nil`: the load was made after the trigger started, no other pending
    /// trigger's evidence names it, and every other pending trigger has evidence of its own (so
    /// the load is this trigger's event's, not another's).
    func untaggedLoadForAssumption(
        of number: Int, among loads: [TimelineScheduler.RequestRecord]
    ) -> Int? {
        guard let trigger = triggers[number] else { return nil }
        var claimed: Set<Int> = []
        for (other, state) in triggers where other != number && !state.returned {
            guard let evidence = state.evidence else { return nil }
            if evidence == .callback { continue }
            guard let request = evidence.request, isOpenParked(request) else { return nil }
            claimed.insert(request)
        }
        let candidates = loads.filter { $0.number > trigger.requestsBeforeStart && !claimed.contains($0.number) }
        return candidates.count == 1 ? candidates[0].number : nil
    }

    /// Whether everything is settled, and which triggers to probe if not.
    mutating func evaluate(
        usesEscalation: Bool, levelsUntaggedWaits: Bool = false
    ) -> (seen: Int, done: Bool, probes: [TimelineScheduler.Probe]) {
        let seen = version + 1
        needsMainQueueDrain = false
        needsUnseenWorkToRunOut = false
        if records.contains(where: { !$0.parked && $0.answers == 0 && !$0.isCallback }) {
            return (seen, false, [])
        }
        let parked = records.filter { $0.parked && !$0.isCallback }
        var done = true
        var probes: [TimelineScheduler.Probe] = []
        for number in triggers.keys.sorted() {
            guard var trigger = triggers[number] else { continue }
            if trigger.returned {
                if !leftoverIsSettled(number, trigger) { done = false }
                continue
            }
            if let evidence = trigger.evidence {
                if evidence == .callback { continue }
                if let request = evidence.request, isOpenParked(request) {
                    if levelsUntaggedWaits, usesEscalation, !trigger.levelled,
                        isFreshUntagged(request, for: trigger)
                    {
                        if let probe = levelUntaggedWait(of: number, &trigger) {
                            probes.append(probe)
                            done = false
                        }
                        triggers[number] = trigger
                    }
                    continue
                }
                // The task it waits on was answered and parked again (a fill-the-screen chain
                // or a serial queue in the same task): it still waits on that task.
                if case .joined(let request) = evidence {
                    if let next = nextParking(after: request) {
                        trigger.evidence = .joined(request: next)
                        triggers[number] = trigger
                        continue
                    }
                    // Answered: the joined task runs on; it parks again or ends (an event),
                    // unless the trigger already went on to work of its own (probed below).
                    let ownWork = records.contains {
                        $0.trigger == number && $0.number > request && $0.parked
                            && $0.answers == 0 && !$0.isCallback
                    }
                    if !ownWork {
                        done = false
                        continue
                    }
                }
                trigger.evidence = nil
            }
            done = false
            guard trigger.probedAt != parkedVersion, let task = trigger.task else {
                triggers[number] = trigger
                continue
            }
            // Loads this trigger spawned (its own task did not park them): it may be awaiting
            // one of them at a priority too low for the await to escalate. A load of another
            // trigger's that it joins escalates by itself, since triggers start above every
            // parked task. A trigger with no such load and no untagged one (below) gets no
            // guess: it will return, park or join (an event) by itself, or the watchdog names it.
            var spawned = parked.filter { $0.trigger == number && !$0.fromTriggerTask }
            if let joined = inheritedJoins[number],
                let record = parked.first(where: { $0.number == joined })
            {
                spawned.append(record)
            }
            // Failing those, loads made by work no trigger started (an event loop created at
            // init) carry no tag and may park above the trigger's priority, so that its `await
            // load.value` escalates nothing (the eighth trial's `sendAndWait` ended every
            // contract on the watchdog): a probe above them tells. Only loads it could await
            // without escalating them count: made after it started (the loop's answer to its
            // event; a join of a task not yet running is not always seen, measured), or at its
            // priority or above (counting a trigger shown awaiting it, see `effectivePriority`).
            // One parked below it earlier escalates by itself if joined.
            let onlyUntagged = spawned.isEmpty
            if onlyUntagged {
                spawned = parked.filter {
                    $0.trigger == nil
                        && ($0.number > trigger.requestsBeforeStart
                            || effectivePriority(of: $0, besides: number) >= trigger.priority)
                }
            }
            guard let target = spawned.last else {
                triggers[number] = trigger
                continue
            }
            // An untagged load raised to exactly this trigger's priority before it parked (the
            // trigger awaited it at once, before its task reached the source) is awaited by
            // this trigger's work: only tasks of a trigger run on its rung, and no other
            // pending trigger is on it. The evidence costs no probe rung (an event loop's
            // `sendAndWait` spent two rungs per event, and a fifth event found none).
            // A trigger on the same rung whose own task is shown waiting on another request
            // (one task awaits one thing at a time) did not raise it.
            if onlyUntagged,
                let early = spawned.last(where: { $0.raisedBeforeParking && $0.priority == trigger.priority }),
                !triggers.contains(where: { other in
                    other.key != number && !other.value.returned && other.value.priority == trigger.priority
                        && !isWaitingElsewhere(other.value, than: early.number)
                })
            {
                trigger.evidence = .raisedBeforeParking(request: early.number)
                noteWait(on: early.number)
                if levelsUntaggedWaits, usesEscalation, isFreshUntagged(early.number, for: trigger),
                    let probe = levelUntaggedWait(of: number, &trigger)
                {
                    probes.append(probe)
                }
                triggers[number] = trigger
                continue
            }
            // A probe spends a rung for good. The loop and the trigger usually take turns on the
            // main actor: let what is queued there run first, so a trigger about to await its
            // load does (an event) before a probe is spent on it.
            if onlyUntagged && mainQueueDrainedAt != parkedVersion {
                needsMainQueueDrain = true
                triggers[number] = trigger
                continue
            }
            trigger.probedAt = parkedVersion
            let floor = max(trigger.priority, spawned.map(\.priority).max() ?? 0)
            let probeRung = usesEscalation ? PriorityLadder.rung(above: floor) : nil
            // Nothing ties the trigger to untagged loads but a probe. The runtime keeps an
            // escalation of a task that has not run yet in about half the runs (measured): an
            // event loop's load awaited at once then parks at its creation priority, showing
            // nothing. When the loop made exactly one load for this trigger alone, the trigger
            // is assumed blocked on it, as the evidence shows in the other half of the runs,
            // rather than spend the top rung on a probe (the next trigger would start there
            // and be seen by nothing) or, with no rung left, leave it to the watchdog (the
            // eighth and eleventh trials' event-loop models ended P5 or P8 there, 1 run in 8).
            // Otherwise no guess: it returns, parks or joins (an event), or the watchdog names it.
            if onlyUntagged { trigger.levelled = true }
            if onlyUntagged, probeRung == nil || probeRung == PriorityLadder.rungs.last,
                let single = untaggedLoadForAssumption(of: number, among: spawned)
            {
                trigger.evidence = .assumed(request: single)
                assumptions += 1
                observations.append(
                    "\"\(trigger.name)\" is assumed blocked on request #\(single): the load its event "
                        + "went to parked at its creation priority (the runtime did not keep the "
                        + "trigger's escalation), and a probe "
                        + (probeRung == nil ? "had no priority left" : "would have spent the last priority"))
            } else if let rung = probeRung {
                trigger.priority = rung
                probes.append(TimelineScheduler.Probe(trigger: number, task: task, priority: rung))
            } else if onlyUntagged {
                // No single load to assume: see above.
            } else {
                trigger.evidence = .assumed(request: target.number)
                assumptions += 1
                observations.append(
                    "\"\(trigger.name)\" is assumed blocked on request #\(target.number): "
                        + (usesEscalation
                            ? "the five task priorities are used up"
                            : "priority escalation is unavailable on this platform"))
            }
            triggers[number] = trigger
        }
        if !done && probes.isEmpty {
            done = triggers.allSatisfy { number, trigger in
                (trigger.returned && leftoverIsSettled(number, trigger))
                    || trigger.evidence == .callback
                    || trigger.evidence.flatMap(\.request).map(isOpenParked) == true
            }
        }
        // An assumption holds only once the work the kit cannot see ran out (see
        // `letTopRungWorkRunOut`), whichever pass made it.
        if done, unseenWorkRanOutAt != parkedVersion,
            triggers.values.contains(where: { trigger in
                guard !trigger.returned, case .assumed(let request)? = trigger.evidence else { return false }
                return isOpenParked(request)
            })
        {
            needsUnseenWorkToRunOut = true
            done = false
        }
        return (seen, done, probes)
    }
}
