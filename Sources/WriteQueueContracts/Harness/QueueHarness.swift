import ConformanceKit
import Foundation

/// Drives one adapter through one contract's timeline: launches and crashes queue instances,
/// starts triggers (submits and sending passes), settles them, answers their requests from the
/// idempotency ledger, moves the manual clock, and writes every step to the transcript.
///
/// The timeline is sequential: only the triggers run concurrently, and they are observed
/// through ``QueueStage``.
final class QueueHarness<A: WriteQueueAdapter> {
    /// One request and what the timeline answered.
    struct AnsweredSend {
        let send: ParkedSend
        let operation: String
        let reply: String
        let at: ManualClock.Instant
        /// The HTTP status the queue received, or `nil` when no response reached it.
        let status: Int?
    }

    let recorder: TimelineRecorder
    let capabilities: QueueCapabilities
    let clock = ManualClock()
    let ledger: IdempotencyLedger
    let stage: QueueStage
    let storage: A.Storage

    private var instances: [Int: A.Queue] = [:]
    /// Launches whose queue the harness has not taken yet: the launch trigger's task hands the
    /// queue over through the lock.
    private var launches: [Int: (trigger: Int, queue: Locked<A.Queue?>)] = [:]
    private var instanceCount = 0
    /// Launches of a queue that declares ``QueueCapabilities/sendsOnLaunch`` whose startup pass
    /// has not started yet: what their launch left running (the queue's own flush, a `Task`
    /// started in `init`) may send before that pass starts, and is the pass's work, not an
    /// orphan. It stays parked until the pass runs, which then counts for it.
    private var startupPassPending: Set<Int> = []
    private(set) var currentInstance = 0
    /// When the phone last started (see ``crash(afterTheServerCommits:restartingThePhone:)``).
    private var bootedAt = ManualClock.Instant.zero
    /// The queue's own timers the timeline has played (ran a pass in their place), by wait.
    private var playedTimers: Set<Int> = []
    /// Whether the last send ``sendIfAny(of:on:clockStep:stepLimit:)`` or a `nextSend` returned
    /// came only after the timeline ran a pass or moved the clock for it: the queue's own running
    /// work (a pass waiting on the clock) did not send it.
    private(set) var lastSendNeededAPass = false
    /// The size of the steps the clock moved in before that send, when it was stepped (the
    /// queue waited on nothing): the send's due time lies within the last step.
    private(set) var lastSendClockStep: Duration?
    /// Instances with a worker of their own that owe a pass because the clock moved.
    private var ticksOwed: Set<Int> = []
    /// Passes run for the queue's own worker that the transcript does not show yet: the
    /// instance, the pass, and why it ran.
    private var ticksToRecord: [(instance: Int, trigger: Int, reason: String)] = []
    /// Requests the queue's own work sent after every call of its instance returned, by
    /// instance: each owes that instance a pass (the first one names it).
    private var ownSends: [Int: Int] = [:]
    private var passCount = 0
    private(set) var operations: [QueueOperation] = []
    private var transcribed: Set<Int> = []
    private var reportedEndings: Set<Int> = []
    private var endingsSeen = 0
    /// Every request that parked, in order.
    private(set) var sends: [ParkedSend] = []
    /// What storage held for each operation (by ID) while its first request was in flight,
    /// where a timeline noted it (see ``noteStorageAtFirstSend(_:of:)``).
    var storageAtFirstSend: [String: StorageAtFirstSend] = [:]
    /// Every request the timeline answered, in order.
    private(set) var answered: [AnsweredSend] = []

    /// Creates a harness for one timeline or schedule.
    ///
    /// - Parameter exploring: Whether the explorer runs it (its settling does not wait on the
    ///   main queue before probing: see ``QueueStage/init(clock:drainsMainQueueBeforeProbing:)``).
    init(recorder: TimelineRecorder, exploring: Bool = false) throws {
        self.recorder = recorder
        capabilities = A.capabilities
        ledger = IdempotencyLedger(profile: capabilities.conflictProfile)
        stage = QueueStage(clock: clock, drainsMainQueueBeforeProbing: !exploring, guessesJoinsOnTheTopRung: exploring)
        let stage = stage
        recorder.setWaitingDetail { stage.stateDescription }
        recorder.setWaiting(for: "the adapter to make storage")
        storage = try A.makeStorage()
    }

    // MARK: Operations

    /// A create whose body is `{"title":"<title>"}` plus `extra` string fields, then `numbers`
    /// number fields, in that order.
    func operation(
        _ number: Int, title: String? = nil, kind: QueueOperation.Kind = .create,
        extra: [(String, String)] = [], numbers: [(String, Int)] = [], sensitive: Set<String> = []
    ) -> QueueOperation {
        var fields: [(String, String)] = []
        if let entity = kindEntity(kind) { fields.append(("id", entity)) }
        fields.append(("title", title ?? "Ticket \(number)"))
        fields += extra
        let json = "{" + (fields.map { "\"\($0.0)\":\"\($0.1)\"" } + numbers.map { "\"\($0.0)\":\($0.1)" })
            .joined(separator: ",") + "}"
        return QueueOperation(
            id: "op-\(number)", kind: kind, body: WriteBody.normalized(Data(json.utf8)),
            sensitiveFields: sensitive)
    }

    /// The canary value in every field the adapter declares sensitive, for a body's extra fields.
    var sensitiveExtras: [(String, String)] {
        capabilities.sensitiveFields.sorted().map { ($0, WriteQueueContract.sensitiveCanary) }
    }

    /// The environment of launch `instance`: its own transport, the shared clock.
    func environment(for instance: Int) -> QueueEnvironment {
        QueueEnvironment(
            transport: ControlledTransport(stage: stage, instance: instance, layout: capabilities.requestLayout),
            clock: clock, launch: instance, bootedAt: bootedAt)
    }

    private func kindEntity(_ kind: QueueOperation.Kind) -> String? {
        if case .update(let entity) = kind { return entity }
        return nil
    }

    /// The operations whose body is `body` (as a JSON value), as `op-1` or `op-1/op-2`.
    func operationLabel(for body: Data) -> String {
        let body = WriteBody.normalized(body)
        let matching = operations.filter { $0.body == body }.map(\.id)
        return matching.isEmpty ? "an unknown body" : matching.joined(separator: "/")
    }

    /// Every request that carried `operation`'s body, in order.
    func sends(of operation: QueueOperation) -> [ParkedSend] {
        sends.filter { $0.request.body == operation.body }
    }

    // MARK: Instances

    /// Launches a queue instance from the storage: the first launch, a relaunch after a crash,
    /// or (with `alongside`) a second live instance over the same storage.
    ///
    /// The launch runs as a trigger, like a submit: a queue whose launch resends what storage
    /// holds (and awaits it) parks those sends here, and becomes usable when its launch returns.
    @discardableResult
    func launch(alongside: Bool = false, deferringStartupPass: Bool = false) async throws -> Int {
        instanceCount += 1
        let number = instanceCount
        let launched = Locked<A.Queue?>(rawValue: nil)
        let (storage, environment) = (self.storage, self.environment(for: number))
        if capabilities.sendsOnLaunch { startupPassPending.insert(number) }
        let trigger = stage.start("launch #\(number)", generation: number) {
            let queue = try await A.launch(from: storage, environment: environment)
            launched.withLock { $0 = queue }
        }
        try await settle("the adapter to launch a queue from storage", transcribing: false)
        reportedEndings.insert(trigger)
        launches[number] = (trigger, launched)
        currentInstance = number
        let what =
            number == 1 ? "launch queue from fresh storage"
            : alongside ? "launch instance #\(number) over the same storage (another process)"
            : "relaunch from storage"
        let stillLaunching = stage.ending(of: trigger) == nil
        recorder.record(what + (stillLaunching ? " (the launch waits on its own sends)" : ""))
        if !stillLaunching { _ = try queue(number) }
        if capabilities.sendsOnLaunch, !deferringStartupPass {
            try await startStartupPass(on: number)
        }
        try transcribeSends()
        return number
    }

    /// Starts the pass a queue declared with ``QueueCapabilities/sendsOnLaunch`` runs at
    /// launch, and settles it.
    func startStartupPass(on instance: Int? = nil) async throws {
        let number = instance ?? currentInstance
        try startPass(on: number, label: "startup sending pass of instance #\(number)")
        startupPassPending.remove(number)
        try await settle("the startup sending pass to return, park a request, or wait on the clock")
    }

    /// Crashes the app: every live instance is dropped without any shutdown. Requests they had
    /// parked never get an answer; their waits never end; they write nothing more.
    ///
    /// - Parameter committed: Parked requests that reached the server, which commits them, just
    ///   before the process died: their answers are lost with it.
    /// Crashes the app, and with `restartingThePhone`, the phone too: it runs out of battery,
    /// or an update restarts it. ``QueueEnvironment/uptime`` then starts over from zero at the
    /// relaunch; storage and the time of day go on.
    func crash(afterTheServerCommits committed: [ParkedSend] = [], restartingThePhone: Bool = false) async throws {
        try await settle("every trigger to return or park before the crash")
        // A pass settles once it parked a request, but a concurrent pass's other children may
        // still be handling an answer already given, or saving, in jobs queued on the global
        // executor (a sync drained in `Task { … }`). Crashed there, the 400 the kit counted as
        // given was never handled, and the dropped instance's children saved their stale task
        // list after the relaunch read storage, erasing a new submit: the twenty-eighth outside
        // trial's correct `NotesOutbox` got false Q9, Q1 and Q12 findings from the explorer in
        // 9 to 22 of 30 replays (0 to 1 since). The process dies at a quiet moment: that work runs out first.
        if GlobalExecutorWatch.current != nil {
            await drainQueuedWork()
            try await settle("every trigger to return or park before the crash")
        }
        for send in committed {
            let reply = ledger.receive(send.request, fault: .commitThenDrop)
            recorder.record(
                "server ← send #\(send.number) \(operationLabel(for: send.request.body)): "
                    + (reply.committed.map { "commit record \($0.id)" } ?? reply.summary)
                    + "; the answer is lost with the process")
        }
        recorder.record(
            restartingThePhone
                ? "crash: the phone restarts (drop instance, no shutdown; uptime starts over)"
                : "crash (drop instance, no shutdown)")
        if restartingThePhone { bootedAt = clock.now }
        for number in Set(instances.keys).union(launches.keys).sorted() {
            for send in stage.kill(generation: number) {
                recorder.record(
                    "  send #\(send.number) \(operationLabel(for: send.request.body)) dies with the "
                        + "process: no answer will ever arrive")
            }
        }
        instances = [:]
        launches = [:]
        startupPassPending = []
        ticksOwed = []
        ownSends = [:]
        recorder.setWaiting(for: "the adapter to forget what lived in the crashed process's memory")
        await A.forgetProcessMemory(in: storage)
    }

    private func queue(_ instance: Int?) throws -> (Int, A.Queue) {
        let number = instance ?? currentInstance
        if instances[number] == nil, let (trigger, launched) = launches[number] {
            switch stage.ending(of: trigger) {
            case "returned":
                instances[number] = launched.rawValue
            case nil:
                throw recorder.fail(
                    Violation(
                        kind: .adapterError, tier: recorder.tier,
                        summary: "Expected launch #\(number) to return before the timeline used the "
                            + "queue, but it is still running (it waits on a send or on the clock).",
                        hint: "A launch may resend what storage holds, but the queue must be usable once "
                            + "those sends are answered; launches that never return cannot be checked."))
            case let ending?:
                throw recorder.fail(
                    Violation(
                        kind: .adapterError, tier: recorder.tier,
                        summary: "Expected launch #\(number) to return a queue, but it \(ending).",
                        hint: "Launching from storage the kit made must not throw; check the adapter's launch."))
            }
            launches[number] = nil
        }
        guard let queue = instances[number] else {
            throw recorder.fail(
                Violation(
                    kind: .adapterError, tier: recorder.tier,
                    summary: "Expected a live queue instance, but instance #\(number) is not running.",
                    hint: "A kit bug: the timeline used an instance after a crash."))
        }
        return (number, queue)
    }

    // MARK: Triggers

    /// Submits `operation` as a trigger, settles, and returns the task the storage then holds.
    @discardableResult
    func submit(_ operation: QueueOperation, on instance: Int? = nil) async throws -> PersistedTask? {
        operations.append(operation)
        let (number, queue) = try queue(instance)
        let trigger = stage.start("submit \(operation.id)", generation: number) {
            try await A.submit(operation, to: queue)
        }
        try await settle("submit \(operation.id) to return or park", transcribing: false)
        reportedEndings.insert(trigger)
        if let ending = stage.ending(of: trigger), ending != "returned" {
            throw recorder.fail(
                Violation(
                    kind: .adapterError, tier: recorder.tier,
                    summary: "Expected submit \(operation.id) to succeed, but it \(ending).",
                    hint: "Submitting a well-formed operation must not throw; check the adapter's submit."))
        }
        let task = try await persistedTask(for: operation)
        let outcome = task.map { "task key \(short($0.key)) persisted (\($0.status.rawValue))" }
            ?? "nothing in storage"
        recorder.record("submit \(operation.id) body \(operation.bodyText) → \(outcome)")
        try transcribeSends()
        return task
    }

    /// Starts a sending pass as a trigger (it is settled later, with its siblings).
    /// - Parameter joinsOwnWork: The pass runs for the queue's own work (a timer, a request it
    ///   sent alone): with the task priorities spent, it is taken as joined to its launch's
    ///   newest parked request, as a pass seen joining before would be. Any pass on an instance
    ///   whose calls left work of its own running is taken so.
    @discardableResult
    func startPass(
        on instance: Int? = nil, label: String? = nil, transcribing: Bool = true, joinsOwnWork: Bool = false
    ) throws -> Int {
        passCount += 1
        let label = label ?? "sending pass #\(passCount)"
        let (number, queue) = try queue(instance)
        if transcribing {
            recorder.record("start \(label)" + (instanceCount > 1 && instances.count > 1 ? " on instance #\(number)" : ""))
        }
        // On a queue with work of its own, a pass joins what that work is doing (a running
        // sync, a drain): it is taken as joined when the priorities to observe that run out.
        let joins = joinsOwnWork || stage.hasOwnWorker(instance: number)
        let trigger = stage.start(label, generation: number, joinsOwnWork: joins) {
            try await A.runSendingPass(queue)
        }
        if !transcribing { reportedEndings.insert(trigger) }
        return trigger
    }

    /// Settles, or finds a call stalled: it neither returned, nor sent, nor waits on the clock,
    /// and nothing moved after the kit let run out the work it cannot see (the main queue, the
    /// global executor's queued jobs, the adapter's `waitForPendingWork`). Returns `false` for a
    /// stall, and gives up on the stalled calls. For a timeline that judges a call that never
    /// goes on (a pass after a cancelled request) as its rule's violation.
    ///
    /// Only a queue whose every request came from its own `DispatchQueue` or callbacks (no
    /// trigger tag), and whose adapter implements `waitForPendingWork`, is found stalled: the
    /// adapter's barrier runs that work out. Without a barrier of its own, work on the queue's
    /// threads may still be running (an `OperationQueue`). One that sends
    /// from Swift concurrency may be busy on the global executor, where the kit sees nothing
    /// (the twelfth trial's `JitterOutbox` saves a file in an unstructured task before it waits
    /// for its backoff): it is settled as always, and a call that never goes on is left to the
    /// watchdog, which names what the kit waited for.
    func settleOrFindStalled(_ what: String) async throws -> Bool {
        recorder.setWaiting(for: what)
        // Rounds of barriers in a row that saw nothing move: work on the queue's own queue may
        // enqueue more there (a handler that leaves a `DispatchGroup` whose `notify` block then
        // completes the pass), which only a later barrier runs.
        var quietRounds = 0
        let barrierCoversTheQueuesWork = await adapterHasItsOwnBarrier()
        for _ in 0..<64 {
            if await stage.settle(untilStalled: true) {
                try await settle(what)
                return true
            }
            guard barrierCoversTheQueuesWork,
                stage.liveInstances.allSatisfy({ stage.sendsOnlyFromItsOwnQueues(instance: $0) })
            else { break }
            let before = stage.eventCount
            await drainQueuedWork()
            for queue in liveQueues { await A.waitForPendingWork(in: queue) }
            quietRounds = stage.eventCount == before ? quietRounds + 1 : 0
            if quietRounds == Self.quietRoundsBeforeAStall, await !stage.settle(untilStalled: true) {
                stage.abandonLiveTriggers()
                return false
            }
        }
        try await settle(what)
        return true
    }

    /// Lets work the kit cannot see run out before a verdict that nothing happens: jobs queued
    /// on the main queue and the global executor (a drain in an unstructured `Task`, hopping
    /// between its actor and the transport, is several jobs in a row and no event until its
    /// request parks). Runs barriers until ``quietRoundsBeforeAStall`` in a row see no event,
    /// settling after each that saw one.
    /// - Returns: Whether anything moved.
    func letUnseenWorkRunOut() async throws -> Bool {
        let start = stage.eventCount
        var quietRounds = 0
        for _ in 0..<64 where quietRounds < Self.quietRoundsBeforeAStall {
            let before = stage.eventCount
            await drainQueuedWork()
            if stage.eventCount == before {
                quietRounds += 1
            } else {
                quietRounds = 0
                try await settle()
            }
        }
        return stage.eventCount != start
    }

    /// Whether the adapter implements ``WriteQueueAdapter/waitForPendingWork(in:)`` (the default
    /// returns at once, and runs out nothing).
    private func adapterHasItsOwnBarrier() async -> Bool {
        guard let queue = liveQueues.first else { return false }
        let probe = PendingWorkBarrier.Probe()
        await PendingWorkBarrier.$probe.withValue(probe) { await A.waitForPendingWork(in: queue) }
        return !probe.ranTheDefault
    }

    /// How many rounds of barriers in a row must see nothing move before a call is found stalled.
    static var quietRoundsBeforeAStall: Int { 4 }

    /// Waits until every live trigger has returned, parked a request or waits on the clock, then
    /// records what changed (unless `transcribing` is `false`: the caller records it). An orphan
    /// request or wait is an adapter error.
    func settle(
        _ what: String = "every trigger to return, park a request, or wait on the clock",
        transcribing: Bool = true
    ) async throws {
        recorder.setWaiting(for: what)
        var again = true
        for _ in 0..<64 where again {
            again = false
            await stage.settle()
            // The queue's own worker sees the clock moved once its calls are done: a pass runs
            // for it (see `noteClockMoved`), and is settled with the rest.
            if try payOwedTicks() {
                again = true
                continue
            }
            // A queue that works on its own DispatchQueue can be about to send more while the
            // stage looks settled: its adapter's barrier lets that work run out; settle again
            // until a barrier sees nothing move. So can a call taken as joined by a guess (the
            // explorer, with the priorities spent): the seventh outside round's Core-Data-like
            // outbox saved a submit in a `perform` block on its private queue, and storage was
            // read before the submit returned (a false Q1, Q6 or Q12 in 3 to 7 schedules of 500).
            for _ in 0..<64 where stage.hasLaunchLevelSends || stage.reliesOnGuessedJoin {
                let before = stage.eventCount
                recorder.setWaiting(for: "the adapter's waitForPendingWork to return (\(what))")
                for queue in liveQueues { await A.waitForPendingWork(in: queue) }
                recorder.setWaiting(for: what)
                await stage.settle()
                if stage.eventCount == before { break }
            }
            // A call that returned since (the stage counts a call blocked behind its queue's own
            // request as settled) may have left its instance idle with a pass owed.
            if try payOwedTicks() {
                again = true
                continue
            }
            // Work a call left running sent a request after every call of its instance returned
            // (a drain started in a `Task` at launch or by a submit, one its timer started at
            // once): the queue's own. A pass runs for it, which joins that work or does the same.
            // Such a request may park at any moment, also after this look: the next settle
            // handles it the same way.
            for send in stage.orphanSends where isLive(send) && ownSends[send.instance] == nil {
                ownSends[send.instance] = send.number
                ticksOwed.insert(send.instance)
            }
            again = try payOwedTicks()
        }
        if transcribing {
            let ended = stage.endedTriggers(skipping: endingsSeen)
            endingsSeen += ended.count
            for ended in ended where !reportedEndings.contains(ended.number) {
                reportedEndings.insert(ended.number)
                recorder.record("\(ended.label) \(ended.ending)")
            }
            for tick in ticksToRecord {
                recorder.record(
                    "\(tick.reason): \(stage.label(of: tick.trigger)) runs for it"
                        + (stage.ending(of: tick.trigger).map { " (\($0))" } ?? ""))
            }
            ticksToRecord = []
            try transcribeSends()
        }
        if let orphan = stage.orphanSends.first(where: { !startupPassPending.contains($0.instance) && !isLive($0) }) {
            throw recorder.fail(
                Violation(
                    kind: .adapterError, tier: recorder.tier,
                    summary: "Expected every request to be awaited by a running submit or sending "
                        + "pass, but send #\(orphan.number) came from \(origin(of: orphan))"
                        + (orphan.trigger == nil ? "" : " after it returned") + ".",
                    hint: "Fire-and-forget work (a Task the call did not await, a detached task) cannot "
                        + "be settled. Await the work inside submit or runSendingPass."))
        }
        if !stage.orphanWaits.isEmpty {
            throw recorder.fail(
                Violation(
                    kind: .adapterError, tier: recorder.tier,
                    summary: "Expected every clock wait to begin inside a launch, submit or sending pass "
                        + "(or in a task one of them started), but one began outside every call of the kit.",
                    hint: "Wait on the injected clock from a task a call started (Task { }, which keeps the "
                        + "call's task-locals), not from Task.detached or a DispatchQueue block."))
        }
    }

    /// Whether `send` came from a launch that is still running (not crashed, not waiting for
    /// its startup pass).
    private func isLive(_ send: ParkedSend) -> Bool {
        !startupPassPending.contains(send.instance)
            && (instances[send.instance] != nil || launches[send.instance] != nil)
    }

    private func transcribeSends() throws {
        for send in stage.liveSends where !transcribed.contains(send.number) {
            transcribed.insert(send.number)
            sends.append(send)
            recorder.record(
                "send #\(send.number) \(operationLabel(for: send.request.body)) "
                    + "key=\(short(send.request.idempotencyKey)) parked (\(origin(of: send)))")
        }
    }

    /// Which trigger (or, for a request with no task-local tag, which launch) sent `send`.
    func origin(of send: ParkedSend) -> String {
        guard send.trigger == nil else { return stage.label(of: send.trigger) }
        return "launch #\(send.instance), from outside the kit's task: a DispatchQueue or callback"
    }

    /// The queue instances that are running (launched and not crashed).
    private var liveQueues: [A.Queue] {
        instances.keys.sorted().compactMap { instances[$0] }
            + launches.keys.sorted().compactMap { launches[$0]?.queue.rawValue }
    }

    /// Triggers still running.
    var running: [Int] { stage.runningTriggers }

    /// Requests parked by live triggers, oldest first.
    var openSends: [ParkedSend] { stage.liveSends }

    /// Answers a parked request and records what the server did.
    /// - Returns: Whether the queue received a success response (the ledger may answer a resend
    ///   of a committed write with the original success whatever fault was asked for).
    @discardableResult
    func answer(_ send: ParkedSend, _ answer: SendAnswer) -> Bool {
        let label = operationLabel(for: send.request.body)
        let result: Result<WriteResponse, any Error>
        let reply: String
        switch answer {
        case .server(let fault):
            let outcome = ledger.receive(send.request, fault: fault)
            reply = outcome.summary
            result = outcome.response.map { .success($0) } ?? .failure(outcome.error ?? .connectionLost)
        case .lost(let error):
            reply = "\(error) before reaching the server"
            result = .failure(error)
        case .cancelled:
            reply = "cancelled on the phone (URLError.cancelled) before reaching the server"
            result = .failure(URLError(.cancelled))
        case .rejected(let status, let quoted):
            _ = ledger.receive(send.request, fault: .answer(status: status))
            reply = "answer \(status), its message quoting the rejected values (nothing recorded)"
            result = .success(WriteResponse(statusCode: status, body: Self.validationErrorBody(quoting: quoted)))
        }
        recorder.record("server ← send #\(send.number) \(label): \(reply)")
        let status = try? result.get().statusCode
        answered.append(AnsweredSend(send: send, operation: label, reply: reply, at: clock.now, status: status))
        stage.resume(send.number, with: result)
        if case .success(let response) = result { return response.isSuccess }
        return false
    }

    /// A validation error's JSON body whose message quotes each of `quoted`'s values.
    private static func validationErrorBody(quoting quoted: [String: String]) -> Data {
        let message = quoted.sorted { $0.key < $1.key }.map { "\($0.key) \"\($0.value)\" is not valid" }
            .joined(separator: "; ")
        let object: [String: Any] = ["error": "validation_failed", "message": message, "rejected": quoted]
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
    }

    /// Moves the clock to the earliest deadline a live trigger waits for. Returns `false` when
    /// nothing waits.
    @discardableResult
    func advanceToNextWake() throws -> Bool {
        guard let next = clock.nextLiveDeadline else { return false }
        try advanceClock(to: next, recording: "advance clock to \(next) (a wait ends)")
        return true
    }

    /// Moves the clock to `instant` and records `line`; a queue with a worker of its own owes a
    /// sending pass for it (see ``noteClockMoved(waking:)``).
    func advanceClock(to instant: ManualClock.Instant, recording line: String? = nil) throws {
        let woken = clock.triggersOfUnstructuredWaits(dueBy: instant)
        clock.advance(to: instant)
        if let line { recorder.record(line) }
        noteClockMoved(waking: woken)
    }

    /// Notes that the clock moved: every live instance with a worker of its own owes a pass.
    ///
    /// Work a call left running after it returned (a worker loop started at launch, a retry
    /// timer a drain re-armed, a periodic sync) is the queue's own: it acts when time passes,
    /// and no call of the kit awaits it.
    /// The kit settles it through calls: the clock holds the queue's own timers (never resumes
    /// them), and each time the clock moves, a sending pass runs on each such instance as soon
    /// as no call of it runs. That pass does what the worker or timer would (a pass sends what
    /// is due) and joins whatever the worker still has to do, so the timeline settles on
    /// evidence (a request parks, or the pass returns), and the worker is never woken twice for
    /// one moment.
    ///
    /// A wait in an unstructured task that a running call started (a retry timer a drain armed
    /// before the call returned) is the queue's own work too, which the call may not await:
    /// woken by this move, it may send after the call returned and go on processing the answer
    /// after the timeline saw nothing running. Its instance owes a pass, which joins that work
    /// or does the same, so the timeline settles on it (`RetryTimerOutbox` failed Q3 in 1 run of
    /// 47: its storage was read while the timer's drain still handled the 200).
    ///
    /// - Parameter woken: The triggers whose waits in an unstructured task this move ends.
    func noteClockMoved(waking woken: Set<Int> = []) {
        for instance in Set(instances.keys).union(launches.keys) where stage.hasOwnWorker(instance: instance) {
            ticksOwed.insert(instance)
        }
        for trigger in woken {
            if let instance = stage.liveInstance(of: trigger) { ticksOwed.insert(instance) }
        }
    }

    /// Starts the passes owed to instances with a worker of their own (see ``noteClockMoved(waking:)``)
    /// that run no call now, without transcribing them (``settle(_:transcribing:)`` records
    /// them once they settled). Returns whether a pass started.
    private func payOwedTicks() throws -> Bool {
        let now = clock.now
        let timers = stage.queueTimers
        var started = false
        for instance in ticksOwed.sorted() where !stage.hasRunningTrigger(instance: instance) {
            ticksOwed.remove(instance)
            let ownSend = ownSends.removeValue(forKey: instance)
            guard instances[instance] != nil || launches[instance] != nil else { continue }
            let due = timers.filter { $0.instance == instance && $0.deadline <= now && !playedTimers.contains($0.id) }
            playedTimers.formUnion(due.map(\.id))
            let trigger = try startPass(on: instance, transcribing: false, joinsOwnWork: true)
            let reason =
                if !due.isEmpty { "the queue's own timer on instance #\(instance) is due" }
                else if let ownSend { "instance #\(instance) sent #\(ownSend) by itself after its calls returned" }
                else { "the clock moved while instance #\(instance)'s own worker runs" }
            ticksToRecord.append((instance, trigger, reason))
            started = true
        }
        return started
    }

    /// The earliest deadline of a timer of the queue's own that the timeline has not played.
    var nextTimerDeadline: ManualClock.Instant? {
        stage.queueTimers.first { !playedTimers.contains($0.id) }?.deadline
    }

    /// Moves the clock by `duration`, as ``advanceClock(to:recording:)`` does.
    func advanceClock(by duration: Duration, recording line: String? = nil) throws {
        try advanceClock(to: clock.now.advanced(by: duration), recording: line)
    }

    /// Moves the clock to the earliest deadline a live trigger waits for and resumes the waits
    /// due then one at a time, settling after each, so two passes woken at one instant act in
    /// the order they started waiting (the explorer's send numbers never depend on a race).
    /// Returns `false` when nothing waits.
    func advanceToNextWakeOneByOne() async throws -> Bool {
        guard let next = clock.nextLiveDeadline else { return false }
        let woken = clock.triggersOfUnstructuredWaits(dueBy: next)
        clock.move(to: next)
        recorder.record("advance clock to \(next) (a wait ends)")
        noteClockMoved(waking: woken)
        while clock.resumeEarliestDue() {
            try await settle()
        }
        return true
    }

    /// Moves the clock past the longest backoff (the declared cap, or 16 s, and one second
    /// more), as a periodic sync that runs later would find it: tasks a queue keeps due in
    /// storage are due again.
    ///
    /// Strictly past: a queue whose retry delay is its cap stores a due time of "now plus the
    /// cap", and ``ManualClock/date`` never returns one value twice, so that due time lies a
    /// little after the instant the answer came (the seventh trial's fixed 5 s delay, declared
    /// as a 5 s cap, was judged never retried after a 408 when the clock moved exactly 5 s).
    ///
    /// - Parameter leases: Whether to move past a send lease a crash left too: a correct queue
    ///   may let a lease run out before it sends that task again, which takes up to twice the
    ///   declared request timeout (as the explorer's liveness check assumes).
    func advancePastLongestBackoff(andLeases leases: Bool = false) throws {
        var step = (capabilities.backoffCap ?? .seconds(16)) + .seconds(1)
        if leases { step = max(step, capabilities.requestTimeout * 2 + .seconds(1)) }
        try advanceClock(
            by: step,
            recording: "advance clock by \(ManualClock.format(step)) (a later sync, past the longest backoff"
                + (leases ? " and a lease the crash left)" : ")"))
    }

    /// Answers every request as `policy` says, moving the clock when every running trigger waits
    /// on it, until every trigger has returned; then, while storage still holds a pending task
    /// of an operation that was never sent, runs a later sync's pass and goes on.
    ///
    /// A pass may join one already running, which read its tasks before a later submit (a
    /// `flush()` that awaits the running drain): the queue sends the later task at its next
    /// sync, and the timeline runs that sync rather than judge a send the queue never owed yet.
    /// A queue may also hold a task back until a due time of its own, with nothing waiting on
    /// the clock (a first send held a moment to batch a burst of submits): when the later sync
    /// sent nothing, the clock moves in sixteenths of the declared cap, a pass after each, as a
    /// sync timer would, for up to twice the cap or the request timeout (the seventeenth trial's
    /// 2 s hold was judged never sent under Q4, Q6, Q11 and Q12).
    ///
    /// - Parameters:
    ///   - maxSends: How many requests a correct queue needs at most.
    ///   - judgingEndlessSending: When `true`, one request more than `maxSends` is a violation of
    ///     the running contract; when `false` the drive stops there (another contract judges
    ///     endless resending) and the transcript says so.
    ///   - policy: The answer for each request; it may throw a violation.
    func drive(
        maxSends: Int = 24, judgingEndlessSending: Bool = true,
        _ policy: (ParkedSend) throws -> SendAnswer
    ) async throws {
        var count = 0
        var laterSyncs = 0
        // The operation the last later sync ran for, and how far the clock moved since.
        var owed: String?
        var sendsWhenOwed = 0
        var stepping = QuietClockStepping(capabilities: capabilities)
        var drainedBeforeMove = false
        func recordStepping() {
            if let line = stepping.takeTranscriptLine() { recorder.record(line) }
        }
        while true {
            try await settle("every trigger to return, park a request, or wait on the clock")
            if let send = openSends.first {
                recordStepping()
                count += 1
                guard count <= maxSends || !judgingEndlessSending else {
                    throw violation(
                        "Expected the queue to stop sending once every task was answered, but it "
                            + "sent more than \(maxSends) requests.",
                        expected: "at most \(maxSends) requests in this drive",
                        actual: "send #\(send.number) \(operationLabel(for: send.request.body)) was request "
                            + "\(count)",
                        hint: "A task that is retried without end: check which answers stop a task.")
                }
                guard count <= maxSends else {
                    recorder.record("stop answering after \(maxSends) requests (endless resending is judged by another contract)")
                    return
                }
                answer(send, try policy(send))
                continue
            }
            if !running.isEmpty, try advanceToNextWake() { continue }
            guard running.isEmpty else { return recordStepping() }
            guard let unsent = try await neverSentPendingOperation() else { return recordStepping() }
            if unsent.id == owed, stepping.canMove, clock.nextLiveDeadline == nil {
                // As in `awaitSend`: main-queue work a call left begins its wait first.
                if !drainedBeforeMove {
                    drainedBeforeMove = true
                    await drainQueuedWork()
                    continue
                }
                drainedBeforeMove = false
                try advanceClock(by: stepping.step)
                stepping.stepped()
                try startPass(transcribing: false)
                continue
            }
            recordStepping()
            guard laterSyncs < operations.count else { return }
            // The same task again, after a whole window of steps in which nothing was sent: the
            // queue holds it for a reason of its own, and more syncs would only repeat the window
            // (a hundred of them took 44 s for a queue that never fetches the task).
            if unsent.id == owed, sends.count == sendsWhenOwed { return }
            laterSyncs += 1
            owed = unsent.id
            sendsWhenOwed = sends.count
            stepping.restart()
            recorder.record("\(unsent.id) is stored and was never sent: a later sync's pass")
            try startPass()
        }
    }

    /// The first submitted operation storage holds as pending or in flight that no request ever
    /// carried: none with its stored key (two submits with one body are told apart by it), or,
    /// for a task stored without a key, none with its body.
    private func neverSentPendingOperation() async throws -> QueueOperation? {
        let sentKeys = Set(sends.compactMap(\.request.idempotencyKey))
        let sentBodies = Set(sends.map(\.request.body))
        // One reading of storage for every operation (a timeline with a hundred tasks read it a
        // hundred times per pass).
        let all = try await tasks()
        for operation in operations {
            guard let task = persistedTask(for: operation, in: all),
                task.status == .pending || task.status == .inFlight
            else { continue }
            let sent = task.key.map(sentKeys.contains) ?? sentBodies.contains(operation.body)
            if !sent { return operation }
        }
        return nil
    }

    /// Waits for the queue to send `operation`: settles, answers requests for other operations
    /// (a queue may send its tasks in any order), moves the clock when every running trigger
    /// waits on it, and starts a sending pass when nothing runs.
    ///
    /// - Parameters:
    ///   - operation: The operation whose request the timeline waits for.
    ///   - instance: The instance to start a pass on; the latest by default.
    ///   - others: How to answer requests for other operations met on the way (success by
    ///     default); `nil` leaves them parked.
    ///   - clockStep: How far to move the clock at a time for a queue that keeps due times in
    ///     storage and waits on nothing; a sixteenth of the declared cap (or of 16 s) by default.
    ///   - stepLimit: How far to move the clock that way in all: twice the cap, or twice the
    ///     request timeout (a send lease in storage left by a crash expires by then), by default.
    func nextSend(
        of operation: QueueOperation, on instance: Int? = nil, answeringOthers others: SendAnswer? = .serve,
        clockStep: Duration? = nil, stepLimit: Duration? = nil
    ) async throws -> ParkedSend {
        try await nextSend(
            ofAnyOf: [operation], on: instance, answeringOthers: { _ in others }, clockStep: clockStep,
            stepLimit: stepLimit)
    }

    /// Waits for the queue to send any of `operations` (the first request for one of them that
    /// parks), as ``nextSend(of:on:answeringOthers:clockStep:stepLimit:)`` does for one.
    /// - Parameter others: The answer for a request of any other operation; `nil` leaves it
    ///   parked.
    func nextSend(
        ofAnyOf operations: [QueueOperation], on instance: Int? = nil,
        answeringOthers others: (ParkedSend) -> SendAnswer?, clockStep: Duration? = nil,
        stepLimit: Duration? = nil
    ) async throws -> ParkedSend {
        let (send, stepped) = try await awaitSend(
            ofAnyOf: operations, on: instance, answeringOthers: others, clockStep: clockStep,
            stepLimit: stepLimit)
        if let send { return send }
        throw try await notSent(operations, stepped: stepped)
    }

    /// Like ``nextSend(of:on:answeringOthers:clockStep:stepLimit:)``, but returns `nil` instead
    /// of recording a violation when the queue does not send `operation`: for a timeline that
    /// judges that under another rule.
    func sendIfAny(
        of operation: QueueOperation, on instance: Int? = nil, clockStep: Duration? = nil,
        stepLimit: Duration? = nil
    ) async throws -> ParkedSend? {
        try await awaitSend(
            ofAnyOf: [operation], on: instance, answeringOthers: { _ in .serve }, clockStep: clockStep,
            stepLimit: stepLimit
        ).send
    }

    private func awaitSend(
        ofAnyOf operations: [QueueOperation], on instance: Int?,
        answeringOthers others: (ParkedSend) -> SendAnswer?, clockStep: Duration?,
        stepLimit: Duration?
    ) async throws -> (send: ParkedSend?, stepped: Duration) {
        let bodies = Set(operations.map(\.body))
        let names = operations.map(\.id).joined(separator: " or ")
        var startedPass = false
        var stepping = QuietClockStepping(capabilities: capabilities, step: clockStep, limit: stepLimit)
        func recordStepping() {
            if let line = stepping.takeTranscriptLine() { recorder.record(line) }
        }
        let bound =
            2 * Int(ManualClock.seconds(stepping.limit) / max(ManualClock.seconds(stepping.step), 0.000_001)) + 256
        var drainedBeforeMove = false
        for _ in 0..<bound {
            try await settle("a request for \(names)")
            if let send = openSends.first(where: { bodies.contains($0.request.body) }) {
                recordStepping()
                lastSendNeededAPass = startedPass || stepping.moved > .zero
                lastSendClockStep = stepping.steps > 0 ? stepping.step : nil
                return (send, stepping.moved)
            }
            if let other = openSends.first, let answer = others(other) {
                self.answer(other, answer)
                continue
            }
            if !running.isEmpty, try advanceToNextWake() { continue }
            if !startedPass, openSends.isEmpty {
                try startPass(on: instance)
                startedPass = true
                continue
            }
            // Work a call queued on the main queue before it returned (a `@MainActor` queue's
            // retry timer in `Task { … }`) must begin its wait before the clock moves with
            // nothing running: once per move, let it run, then look again.
            if running.isEmpty, openSends.isEmpty, stepping.canMove, !drainedBeforeMove {
                drainedBeforeMove = true
                await drainQueuedWork()
                continue
            }
            drainedBeforeMove = false
            // A queue with a timer of its own (a worker's retry timer) retries when it fires:
            // move the clock to it, as time passing would (a pass runs beside it).
            if running.isEmpty, openSends.isEmpty, stepping.canMove, let deadline = nextTimerDeadline {
                recordStepping()
                if deadline > clock.now {
                    stepping.moved(by: clock.now.duration(to: deadline))
                    try advanceClock(to: deadline, recording: "advance clock to \(deadline) (the queue's own timer)")
                } else {
                    // Already due (re-armed for a time that has passed): played as one the
                    // clock reached, without recording a move that did not happen.
                    noteClockMoved()
                }
                continue
            }
            // A queue may keep its next due time in storage and skip tasks that are not due,
            // without waiting on the clock: step the clock and run another pass, as a sync
            // timer would.
            // Storage is read every sixteenth step only (a pass that sends nothing rarely
            // changes it): a task that left storage or stopped ends the stepping.
            var stillPending = true
            if stepping.untranscribed % 16 == 0 { stillPending = try await storageHoldsPending(operations) }
            if running.isEmpty, openSends.isEmpty, clock.nextLiveDeadline == nil, stepping.canMove, stillPending {
                try advanceClock(by: stepping.step)
                stepping.stepped()
                try startPass(on: instance, transcribing: false)
                // Settled here without a transcript, so that the line summing up the steps comes
                // before the send they led to (the loop's next settle transcribes it).
                try await settle("a request for \(names)", transcribing: false)
                if openSends.contains(where: { bodies.contains($0.request.body) }) { recordStepping() }
                continue
            }
            break
        }
        recordStepping()
        return (nil, stepping.moved)
    }

    /// The first answer the declared capabilities make final (a conflict under the declared
    /// profile, a client error not declared retryable) whose request the queue sent again with
    /// the same key and body, and that resend.
    private func resentAfterAFinalAnswer() -> (AnsweredSend, ParkedSend)? {
        for stopped in answered {
            guard let status = stopped.status, capabilities.makesFinal(status),
                let resend = sends.first(where: {
                    $0.number > stopped.send.number && $0.request.idempotencyKey == stopped.send.request.idempotencyKey
                        && $0.request.body == stopped.send.request.body
                })
            else { continue }
            return (stopped, resend)
        }
        return nil
    }

    /// Whether storage still holds one of `operations` as pending: a task that left storage or
    /// stopped will not be sent however long the clock moves.
    private func storageHoldsPending(_ operations: [QueueOperation]) async throws -> Bool {
        for operation in operations {
            let status = try await persistedTask(for: operation)?.status
            if status == .pending || status == .inFlight { return true }
        }
        return false
    }

    /// The violation for operations the queue did not send, with a hint from what storage shows.
    private func notSent(_ operations: [QueueOperation], stepped: Duration) async throws -> TimelineStop {
        let names = operations.map(\.id).joined(separator: " or ")
        if let (stopped, resend) = resentAfterAFinalAnswer() {
            // The queue goes on sending a task whose answer ended it, and sends nothing else:
            // a queue that keeps each entity's tasks in order waits behind it for ever. That is
            // the rule of the answer, not the running contract's (the thirty-second trial's
            // correct outbox, declared with the source document's 409, retried a 409 and was
            // reported under Q10 as well as Q4).
            let status = stopped.status ?? 0
            let conflict = capabilities.isConflict(status)
            return blocked(
                by: conflict ? "Q4" : "Q9",
                "Expected the queue to send \(names), but it kept sending \(stopped.operation) after its \(status) "
                    + "(send #\(stopped.send.number) was answered: \(stopped.reply); send #\(resend.number) carried it again), "
                    + "which the declared capabilities make final, and sent nothing else.",
                expected: "\(stopped.operation) stopped with a diagnostic; \(names) sent",
                actual: "stored tasks: \(try await describeTasks())",
                hint: conflict
                    ? "A \(status) under the declared conflict profile (\(capabilities.conflictProfile)) means the key was "
                        + "reused with another body: stop the task for a person; if your server means \"still "
                        + "processing\" by it, declare that profile instead."
                    : "A \(status) that is not declared retryable is final: stop the task with a diagnostic.")
        }
        let open = openSends.map { "send #\($0.number) \(operationLabel(for: $0.request.body))" }
        let operation = operations[0]
        let task = try await persistedTask(for: operation)
        let stored = try await describeTasks()
        let hint: String
        switch task?.status {
        case nil:
            hint = "The task is not in storage, so nothing will ever send it: persist it at submit and "
                + "keep it until an explicit success."
        case let status? where status == .pending || status == .inFlight:
            hint = "The task is stored (\(status.rawValue)), yet no pass sends it. If a lease or claim from a "
                + "crashed launch still holds it, a relaunch must treat it as gone (leases in process "
                + "memory vanish with the process: clear them in forgetProcessMemory(in:)); a task "
                + "left \"sending\" by a crash must be picked again."
        case let status?:
            hint = "The task is \(status.rawValue), so no pass sends it; check which answers end a task."
        }
        return violation(
            "Expected the queue to send \(names), but "
                + (open.isEmpty
                    ? "no pass sent it"
                        + (stepped > .zero
                            ? " (while the kit stepped the clock \(ManualClock.format(stepped)) further, a pass after each step)" : "")
                    : "only \(open.joined(separator: ", ")) is in flight")
                + ".",
            expected: "a request with body " + operations.map(\.bodyText).joined(separator: " or "),
            actual: "stored tasks: \(stored)",
            hint: hint)
    }

    // MARK: Storage

    /// Every task the storage holds.
    func tasks() async throws -> [PersistedTask] {
        recorder.setWaiting(for: "the adapter to list the persisted tasks")
        let layout = capabilities.requestLayout
        return try await A.persistedTasks(in: storage).map { task in
            // A stored body is read as a request body is (the adapter may report the envelope
            // the queue stores), and compared as a JSON value.
            var task = task
            task.body = layout.normalize(WriteRequest(idempotencyKey: task.key, body: task.body)).body
            return task
        }
    }

    /// The stored task for `operation`: by operation ID, else by body (in submit order).
    func persistedTask(for operation: QueueOperation) async throws -> PersistedTask? {
        persistedTask(for: operation, in: try await tasks())
    }

    /// The task of `operation` among `all` (one reading of storage): by operation ID, or else
    /// by body, the n-th operation with a body being the n-th task with it.
    func persistedTask(for operation: QueueOperation, in all: [PersistedTask]) -> PersistedTask? {
        if let byID = all.first(where: { $0.operationID == operation.id }) { return byID }
        let twins = operations.filter { $0.body == operation.body }
        let index = twins.firstIndex(of: operation) ?? 0
        let matching = all.filter { $0.body == operation.body }
        return index < matching.count ? matching[index] : nil
    }

    /// The stored tasks in one line each.
    func describeTasks() async throws -> String {
        describe(try await tasks())
    }

    /// `all` in one line each.
    func describe(_ all: [PersistedTask]) -> String {
        all.isEmpty ? "none" : all.map { "\($0.description) body \($0.bodyText)" }.joined(separator: "; ")
    }

    /// Diagnostics and log lines of every live instance, plus the stored tasks' diagnostics.
    func diagnostics() async throws -> [String] {
        var lines: [String] = []
        for number in instances.keys.sorted() {
            if let queue = instances[number] {
                recorder.setWaiting(for: "the adapter to report diagnostics")
                lines += await A.diagnostics(of: queue, storage: storage)
            }
        }
        lines += try await tasks().compactMap(\.diagnostic)
        return lines
    }

    // MARK: Ending

    /// Ends the timeline: answers what is open, cancels and awaits every trigger, and removes
    /// the storage.
    func finish() async {
        recorder.setWaiting(for: "every trigger to end after the timeline cancelled it")
        await stage.finish()
        if stage.stoppedWaitingAfterTheEnd {
            recorder.note(
                "After the timeline ended the queue sent more than \(QueueStage.sendsAfterTheEndLimit) requests at once, each answered as "
                    + "cancelled: a retry with no delay that does not stop when its task is cancelled. The kit left "
                    + "them unanswered and its triggers running.")
        }
        A.discardStorage(storage)
    }

    /// Records a contract violation of the running contract and returns the stop signal.
    func violation(
        _ summary: String, expected: String? = nil, actual: String? = nil,
        difference: String? = nil, hint: String
    ) -> TimelineStop {
        recorder.fail(
            Violation(
                kind: .contract, tier: recorder.tier, summary: summary, expected: expected,
                actual: actual, difference: difference, hint: hint))
    }

    /// What a verdict that rests on settling says when the kit could not see the queue's own
    /// machinery: every request came without a trigger's tag (from the queue's `DispatchQueue`,
    /// `OperationQueue` or completion handlers) and the adapter has no barrier for it, so a pass
    /// still working there may have been taken as blocked. `nil` otherwise. It calls the
    /// adapter's ``WriteQueueAdapter/waitForPendingWork(in:)`` once to learn whether it has one:
    /// ask only when the verdict is a failure. (`MinimalQueue`, sending from a serial
    /// `DispatchQueue`, showed a false Q7 in one combination of its variations out of 128
    /// before its adapter got a barrier.)
    func ownQueuesNote() async -> String? {
        guard stage.sentOnlyFromItsOwnQueues, await !adapterHasItsOwnBarrier() else { return nil }
        return "Every request this queue sent reached the transport without a trigger's tag (from "
            + "its own DispatchQueue, OperationQueue or completion handlers), and its adapter does not "
            + "implement waitForPendingWork(in:): the kit cannot tell a pass still working on those "
            + "queues from one that is blocked, so a correct queue can fail here too. Implement "
            + "waitForPendingWork (WriteQueue.md, \"Declaring what the kit cannot see\") and run "
            + "again before trusting this verdict."
    }

    /// A key shortened for the transcript: `3f2a9c1e…`.
    func short(_ key: String?) -> String {
        guard let key else { return "none" }
        return key.count > 12 ? String(key.prefix(10)) + "…" : key
    }
}

// MARK: Plans: answers by operation, in whatever order the queue sends

extension QueueHarness {
    /// Answers the first request of every operation in `plan` as the plan says, in whatever
    /// order (or concurrency) the queue sends them. A later request for a planned operation met
    /// before every first request was answered gets `laterAnswer`; a request for any other
    /// operation is served.
    ///
    /// - Parameters:
    ///   - plan: Each operation with the answer its first request gets.
    ///   - notingStorage: Whether to note what storage holds for each operation while its first
    ///     request is in flight (see ``noteStorageAtFirstSend(_:of:)``).
    ///   - laterAnswer: The answer for a planned operation's retry met on the way. A queue that
    ///     sends strictly in order retries its head until that ends it: an answer that never
    ///     ends it (a lost connection, every time) keeps the other first requests from coming.
    ///   - afterEach: Runs after each planned answer has settled (a check of that operation).
    /// - Returns: The first request of each operation, by operation ID.
    @discardableResult
    func answerFirstRequests(
        _ plan: [(QueueOperation, SendAnswer)], notingStorage: Bool = false,
        laterAnswer: (ParkedSend) -> SendAnswer,
        afterEach: (QueueOperation, ParkedSend) async throws -> Void = { _, _ in }
    ) async throws -> [String: ParkedSend] {
        var first: [String: ParkedSend] = [:]
        let planned = Set(plan.map(\.0.body))
        while first.count < plan.count {
            let waiting = plan.map(\.0).filter { first[$0.id] == nil }
            let send = try await nextSend(ofAnyOf: waiting) { other in
                planned.contains(other.request.body) ? laterAnswer(other) : .serve
            }
            guard let (operation, answer) = plan.first(where: { $0.0.body == send.request.body && first[$0.0.id] == nil })
            else { continue }
            first[operation.id] = send
            if notingStorage { try await noteStorageAtFirstSend(send, of: operation) }
            self.answer(send, answer)
            try await settle()
            try await afterEach(operation, send)
        }
        return first
    }

    /// Checks that `resend` carries the bytes of `first`, the first request of its task, byte for
    /// byte (Q3: a resend must not re-encode the body).
    func expectSameBytes(
        _ resend: ParkedSend, as first: ParkedSend, of operation: QueueOperation, _ reason: String
    ) throws {
        guard resend.rawBody != first.rawBody else { return }
        let changed = BodyDifference.changedMembers(first.rawBody, resend.rawBody)
        let fields = changed.map { "`\($0)`" }.joined(separator: ", ")
        throw violation(
            "Expected \(reason), but send #\(resend.number) of \(operation.id) carried other bytes than "
                + "its first request (send #\(first.number))"
                + (changed.isEmpty ? "." : ": \(fields) changed."),
            expected: "body bytes \(String(decoding: first.rawBody, as: UTF8.self))",
            actual: "body bytes \(String(decoding: resend.rawBody, as: UTF8.self))",
            hint: changed.isEmpty
                ? "Store the encoded body with the task and resend those bytes; an encoder whose key "
                    + "order or whitespace can change makes the server see a different body under the key."
                : "A field made again at each attempt (a send time, a signature) makes the server see a "
                    + "different body under the key: stamp it once, at submit, store it with the task, and "
                    + "resend the stored bytes.")
    }


    /// Records a finding of another rule met on the way: the cell is blocked by `rule`, not
    /// failed under the running contract.
    func blocked(
        by rule: ContractID, _ summary: String, expected: String? = nil, actual: String? = nil,
        hint: String
    ) -> TimelineStop {
        recorder.block(
            by: rule,
            Violation(kind: .contract, summary: summary, expected: expected, actual: actual, hint: hint))
    }
}
