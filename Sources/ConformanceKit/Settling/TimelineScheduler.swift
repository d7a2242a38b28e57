import Foundation

/// Runs a subject's triggers and parks every request it makes until the timeline answers,
/// and knows, by evidence and never by time, when nothing can move without an answer.
///
/// The page source and the write transport are both built on it: a load or a send is a
/// parked request, a user event or a sending pass is a trigger. ``settle()`` returns when
/// every trigger has returned or is provably blocked on a parked request (see
/// ``SettleEvidence``), so a negative check ("the stale page changed nothing") is safe.
///
/// Rules it follows (measured on the kit's machine, see the design notes):
/// - a request is registered before it parks; a registered, unparked request means "not settled";
/// - a new trigger starts one priority rung above every parked task, so that a later join
///   escalates the parked task and the escalation handler names the joiner;
/// - a pending trigger without evidence is probed by raising its priority above every parked
///   task; if the escalation reaches a parked request inside that call, the trigger waits on it;
/// - when the five rungs run out, a trigger with a parked request of its own is assumed blocked,
///   and the transcript says so.
package final class TimelineScheduler<Request: Sendable, Answer: Sendable>: @unchecked Sendable {
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
    }

    private struct TriggerState {
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
    }

    private let lock = NSLock()
    private var records: [RequestRecord] = []
    private var continuations: [Int: CheckedContinuation<Answer, any Error>] = [:]
    private var earlyAnswers: [Int: Result<Answer, any Error>] = [:]
    private var preAnswerProvider: (@Sendable (Int, Request) -> Result<Answer, any Error>?)?
    private var preAnswersCallbacks = false
    private var preAnswered: Set<Int> = []
    private var callbacks: [Int: @Sendable (Result<Answer, any Error>) -> Void] = [:]
    private var triggers: [Int: TriggerState] = [:]
    private var nextTrigger = 1
    private var version = 0
    private var parkedVersion = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var probing: Int?
    private var problems: [String] = []
    /// For each completion-handler trigger the kit started, the request it answers.
    private var completionOrigins: [Int: Int] = [:]
    /// For each trigger, the parked request that work it spawned (an intermediate task, such
    /// as a debouncer's) joined: the trigger may wait on that work, so a probe can tell.
    private var inheritedJoins: [Int: Int] = [:]
    private var observations: [String] = []

    /// The raw priorities the runtime accepts, lowest first.
    static var ladder: [UInt8] { [9, 17, 21, 25, 33] }

    /// Whether escalation evidence (joined, probed) is available on this platform.
    package let usesEscalation: Bool

    /// Creates a scheduler.
    package init() {
        usesEscalation = Self.escalationAvailable
    }

    /// Whether this toolchain and OS let the kit observe joins through task-priority
    /// escalation (Swift 6.2 or later; on Apple platforms, OS 26 or later). Without it the kit
    /// cannot tell a trigger that awaits a parked load from one still running.
    package static var escalationAvailable: Bool {
        #if compiler(>=6.2)
            if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
                return true
            }
        #endif
        return false
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
        let (number, priority) = lock.withLock {
            let number = nextTrigger
            nextTrigger += 1
            let floor = records.filter { $0.parked && !$0.isCallback }.map(\.priority).max() ?? 0
            let priority = Self.ladder.first { $0 > floor } ?? Self.ladder[Self.ladder.count - 1]
            var state = TriggerState(name: name, priority: priority)
            state.isCompletion = isCompletion
            triggers[number] = state
            return (number, priority)
        }
        let task = Task(priority: TaskPriority(rawValue: priority)) {
            let identity = currentTaskIdentity() ?? 0
            self.update { self.triggers[number]?.identity = identity }
            var failure: String? = nil
            let lifetime = TriggerLifetime { [weak self] in
                self?.update { self?.triggers[number]?.workEnded = true }
            }
            do {
                try await TriggerTag.$current.withValue(
                    TriggerTag(trigger: number, taskIdentity: identity, lifetime: lifetime),
                    operation: body)
            } catch {
                failure = String(describing: error)
            }
            self.update {
                self.triggers[number]?.returned = true
                self.triggers[number]?.error = failure
                self.triggers[number]?.evidence = nil
                if !isCompletion { self.noteUnawaitedRequests(of: number) }
            }
        }
        lock.withLock { triggers[number]?.task = task }
        return number
    }

    /// Why a trigger started now might not be observable, or `nil` when whatever it does
    /// produces an event: it starts on a rung strictly above every parked task (so a join
    /// escalates the parked task) and one rung is left above that (so a load it spawns and
    /// then awaits can be found by a probe).
    ///
    /// Escalation only raises a task's priority and only five raw priorities exist, so every
    /// join of one parked load spends a rung: a load joined by four triggers in a row sits at
    /// the top rung, and a fifth trigger that joins it neither parks, returns nor escalates
    /// anything. The contracts' timelines stay far below that; a generated schedule can reach
    /// it, so the explorer asks before each trigger and skips the ones the kit could not see.
    /// Without escalation (older toolchains and OSes) a trigger is observable only while no
    /// async request is parked.
    package var nextTriggerUnobservable: String? {
        lock.withLock {
            let parked = records.filter { $0.parked && !$0.isCallback }
            guard !parked.isEmpty else { return nil }
            guard usesEscalation else {
                return "a request is parked and priority escalation is unavailable here, so a trigger that joins its load could not be seen"
            }
            let floor = parked.map(\.priority).max() ?? 0
            let rungs = Self.ladder.filter { $0 > floor }
            guard rungs.count < 2 else { return nil }
            let top = parked.filter { $0.priority == floor }.map { "#\($0.number)" }.joined(separator: ", ")
            return "request \(top) is parked at priority \(floor) after earlier joins and probes; "
                + "a trigger that joined its load now could not be seen (only the raw priorities "
                + Self.ladder.map(String.init).joined(separator: ", ") + " exist)"
        }
    }

    /// Whether trigger `number` has returned, and the error it threw, if any.
    package func outcome(ofTrigger number: Int) -> (returned: Bool, error: String?) {
        lock.withLock { (triggers[number]?.returned ?? false, triggers[number]?.error) }
    }

    /// The evidence that trigger `number` is blocked, if it has any now.
    package func evidence(ofTrigger number: Int) -> SettleEvidence? {
        lock.withLock { triggers[number]?.evidence }
    }

    // MARK: - Requests

    /// Registers `request` and suspends until the timeline answers it.
    ///
    /// Cancelling the waiting task is noticed but does not answer the request: the timeline
    /// decides what a cancelled request's completion sees (cancellation is not proof).
    package func park(_ request: Request) async throws -> Answer {
        #if compiler(>=6.2)
            if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
                // The handler is installed before the request is registered: a join that
                // escalates this task after registration must always produce an event.
                let registered = RegisteredNumber()
                return try await withTaskPriorityEscalationHandler {
                    let number = self.register(request, callback: nil)
                    registered.set(number)
                    return try await self.suspend(number)
                } onPriorityEscalated: { _, new in
                    if let number = registered.value { self.noteEscalation(of: number, to: new) }
                }
            }
        #endif
        return try await suspend(register(request, callback: nil))
    }

    /// The number of a request being parked, shared with its escalation handler.
    private final class RegisteredNumber: @unchecked Sendable {
        private let lock = NSLock()
        private var number: Int?

        var value: Int? { lock.withLock { number } }

        func set(_ number: Int) {
            lock.withLock { self.number = number }
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
        let delivery: Delivery = update {
            guard let index = self.records.firstIndex(where: { $0.number == number }) else {
                return .refused
            }
            if let callback = self.callbacks[number] {
                self.records[index].answers += 1
                return .callback(callback)
            }
            guard self.records[index].answers == 0 else { return .refused }
            self.records[index].answers = 1
            self.records[index].parked = false
            self.parkedVersion += 1
            for key in self.triggers.keys where self.triggers[key]?.evidence?.request == number {
                // A join stays on the task it joined: `evaluate` moves it to that task's next
                // parked request, or drops it when the trigger moves on.
                if case .joined = self.triggers[key]?.evidence { continue }
                self.triggers[key]?.evidence = nil
            }
            if let continuation = self.continuations.removeValue(forKey: number) {
                return .resume(continuation)
            }
            self.earlyAnswers[number] = result
            return .early
        }
        switch delivery {
        case .resume(let continuation):
            continuation.resume(with: result)
        case .callback(let completion):
            let trigger = startTrigger("completion handler of request #\(number)", isCompletion: true) {
                completion(result)
                // Work the handler queued on the main queue (`DispatchQueue.main.async`, what
                // URLSession-based layers do) runs before these barriers do: the answer is
                // handled before the next check. Two rounds cover a hop that hops again.
                await Self.mainQueueBarrier()
                await Self.mainQueueBarrier()
            }
            lock.withLock { completionOrigins[trigger] = number }
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
        lock.withLock {
            preAnswerProvider = provider
            preAnswersCallbacks = callbacksSynchronously
        }
    }

    /// Whether request `number` was answered at registration by ``preAnswer(using:)``.
    package func wasPreAnswered(_ number: Int) -> Bool {
        lock.withLock { preAnswered.contains(number) }
    }

    /// Whether request `later` comes from the same work as request `earlier`: made by the same
    /// trigger, by the completion handler that answered `earlier`, or by untagged work (a
    /// main-queue hop) while `earlier`'s answer was handled. A pager that fills the screen
    /// chains its follow-ups this way.
    package func isChained(_ later: Int, after earlier: Int) -> Bool {
        lock.withLock {
            guard later >= 1, later <= records.count, earlier >= 1, earlier <= records.count else {
                return false
            }
            guard let trigger = records[later - 1].trigger else { return true }
            return trigger == records[earlier - 1].trigger || completionOrigins[trigger] == earlier
        }
    }

    /// Every request so far, in order.
    package var requests: [RequestRecord] { lock.withLock { records } }

    /// Adapter mistakes seen so far (requests from work of a trigger that had returned).
    package var adapterProblems: [String] { lock.withLock { problems } }

    /// Takes the observations made since the last call (cancellations noticed, assumptions
    /// made), for the transcript.
    package func takeObservations() -> [String] {
        lock.withLock {
            defer { observations = [] }
            return observations
        }
    }

    /// What the scheduler sees, for a watchdog message: open requests and pending triggers.
    package var stateDescription: String {
        lock.withLock {
            let open = records.filter { $0.answers == 0 }.map { record in
                "request #\(record.number) \(record.request) "
                    + (record.parked ? "parked" : "registered, not yet parked")
                    + " at priority \(record.priority)"
                    + (record.trigger.map { " (from trigger #\($0))" } ?? " (untagged work)")
                    + (record.cancelled ? ", cancelled" : "")
            }
            let pending = triggers.keys.sorted().compactMap { number -> String? in
                guard let trigger = triggers[number] else { return nil }
                if trigger.returned {
                    guard !trigger.workEnded else { return nil }
                    return "trigger #\(number) \"\(trigger.name)\" returned, but a task it started "
                        + "(and did not await) is still running"
                }
                return "trigger #\(number) \"\(trigger.name)\" at priority \(trigger.priority), "
                    + (trigger.evidence.map { "\($0)" } ?? "no evidence it is blocked")
            }
            return (open.isEmpty ? "no open request" : open.joined(separator: "; ")) + "; "
                + (pending.isEmpty ? "no pending trigger" : pending.joined(separator: "; "))
        }
    }

    // MARK: - Settling

    /// Returns when every trigger has returned or is provably blocked on a parked request,
    /// and every registered request is parked. Waits only for events, never for time.
    package func settle() async {
        while true {
            let (seen, done, probes) = update { evaluate() }
            if done { return }
            if !probes.isEmpty {
                for probe in probes { run(probe) }
                continue
            }
            await waitForChange(from: seen)
        }
    }

    /// Answers everything still open with a cancellation error and waits for every trigger to
    /// return, so no continuation leaks. Call it at the end of every timeline.
    package func finish() async {
        while true {
            let (open, allReturned, seen) = lock.withLock {
                (
                    records.filter { $0.answers == 0 }.map(\.number),
                    triggers.values.allSatisfy(\.returned),
                    version
                )
            }
            for number in open { answer(number, with: .failure(CancellationError())) }
            if open.isEmpty && allReturned { break }
            if open.isEmpty { await waitForChange(from: seen) }
        }
        let tasks = lock.withLock { triggers.values.compactMap(\.task) }
        for task in tasks { await task.value }
    }

    // MARK: - Evidence

    /// Marks the current trigger as waiting in a completion-handler wrapper; call it only
    /// after the subject's synchronous call returned. Returns a token for ``callbackFired(_:)``.
    package func callbackWaitBegan(token: CallbackToken) {
        update {
            guard !token.fired, let trigger = token.trigger else { return }
            self.triggers[trigger]?.evidence = .callback
            token.waiting = true
        }
    }

    /// Marks a completion handler as called: its trigger is running again.
    package func callbackFired(_ token: CallbackToken) {
        update {
            token.fired = true
            if token.waiting, let trigger = token.trigger, self.triggers[trigger]?.evidence == .callback {
                self.triggers[trigger]?.evidence = nil
            }
        }
    }

    /// Identifies one wait in the kit's completion-handler wrapper. Guarded by the scheduler.
    package final class CallbackToken: @unchecked Sendable {
        let trigger: Int?
        var fired = false
        var waiting = false

        /// A token for the trigger running now.
        package init() {
            trigger = TriggerTag.current?.trigger
        }
    }

    // MARK: - Internals

    /// Returns once every block queued on the main queue before the call has run.
    private static func mainQueueBarrier() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
    }

    /// Records an adapter problem for each request the spawned work of trigger `number` has
    /// open while the trigger's body returns (called under the lock, as the body returns).
    private func noteUnawaitedRequests(of number: Int) {
        guard let owner = triggers[number] else { return }
        for record in records
        where record.trigger == number && !record.fromTriggerTask && record.answers == 0
            && !record.isCallback
        {
            problems.append(
                "request #\(record.number) is still open in work that \"\(owner.name)\" started "
                    + "and did not await: the trigger returned first. An adapter's trigger must "
                    + "await the work it starts (call the async method, not a wrapper that spawns "
                    + "a Task and returns).")
        }
    }

    private enum Delivery {
        case resume(CheckedContinuation<Answer, any Error>)
        case callback(@Sendable (Result<Answer, any Error>) -> Void)
        case early
        case refused
    }

    private struct Probe {
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
        let number = recordRegistration(
            request, tag: tag, identity: identity, priority: priority, callback: callback)
        let provider = lock.withLock {
            callback == nil || preAnswersCallbacks ? preAnswerProvider : nil
        }
        if let provider, let result = provider(number, request) {
            _ = lock.withLock { preAnswered.insert(number) }
            if let callback {
                // An answer already available reaches a completion handler synchronously,
                // inside the call that asked for it, as a cached response does.
                update {
                    if let index = self.records.firstIndex(where: { $0.number == number }) {
                        self.records[index].answers += 1
                    }
                }
                callback(result)
            } else {
                answer(number, with: result)
            }
        }
        return number
    }

    private func recordRegistration(
        _ request: Request, tag: TriggerTag?, identity: Int?, priority: UInt8,
        callback: (@Sendable (Result<Answer, any Error>) -> Void)?
    ) -> Int {
        update {
            let number = self.records.count + 1
            if let trigger = tag?.trigger, let owner = self.triggers[trigger], owner.returned,
                !owner.isCompletion
            {
                self.problems.append(
                    "request #\(number) came from work that \"\(owner.name)\" started and did not "
                        + "await: the trigger had already returned. An adapter's trigger must "
                        + "await the work it starts (call the async method, not a wrapper that "
                        + "spawns a Task and returns).")
            }
            var record = RequestRecord(
                number: number, request: request, trigger: tag?.trigger,
                fromTriggerTask: tag != nil && tag?.taskIdentity == identity,
                parked: callback != nil, priority: priority, isCallback: callback != nil)
            record.taskIdentity = identity
            self.records.append(record)
            if let callback {
                self.callbacks[number] = callback
                self.parkedVersion += 1
            }
            return number
        }
    }

    private func suspend(_ number: Int) async throws -> Answer {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let early: Result<Answer, any Error>? = update {
                    if let early = self.earlyAnswers.removeValue(forKey: number) { return early }
                    self.continuations[number] = continuation
                    guard let index = self.records.firstIndex(where: { $0.number == number }) else {
                        return nil
                    }
                    self.records[index].parked = true
                    self.parkedVersion += 1
                    let record = self.records[index]
                    if record.fromTriggerTask, let trigger = record.trigger {
                        self.triggers[trigger]?.evidence = .parked(request: number)
                    }
                    return nil
                }
                if let early { continuation.resume(with: early) }
            }
        } onCancel: {
            self.update {
                guard let index = self.records.firstIndex(where: { $0.number == number }),
                    !self.records[index].cancelled
                else { return }
                self.records[index].cancelled = true
                self.observations.append("the subject cancelled the task waiting on request #\(number)")
            }
        }
    }

    private func noteEscalation(of number: Int, to priority: TaskPriority) {
        let tag = TriggerTag.current
        let identity = currentTaskIdentity()
        update {
            if let index = self.records.firstIndex(where: { $0.number == number }) {
                self.records[index].priority = UInt8(truncatingIfNeeded: priority.rawValue)
            }
            if let tag, let joiner = self.triggers[tag.trigger], !joiner.returned,
                joiner.identity == identity
            {
                self.triggers[tag.trigger]?.evidence = .joined(request: number)
            } else if let tag, let joiner = self.triggers[tag.trigger], !joiner.returned,
                self.probing == nil
            {
                // Work the trigger spawned (an intermediate task) joined the load: the trigger
                // may be waiting on that work; a probe will tell.
                self.inheritedJoins[tag.trigger] = number
            } else if let probing = self.probing {
                self.triggers[probing]?.evidence = .probed(request: number)
            }
        }
    }

    private func run(_ probe: Probe) {
        #if compiler(>=6.2)
            if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
                lock.withLock { probing = probe.trigger }
                probe.task.escalatePriority(to: TaskPriority(rawValue: probe.priority))
                update { self.probing = nil }
            }
        #endif
    }

    private func waitForChange(from seen: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            lock.lock()
            if version != seen {
                lock.unlock()
                continuation.resume()
            } else {
                waiters.append(continuation)
                lock.unlock()
            }
        }
    }

    /// Runs `body` under the lock, counts it as an event and wakes every waiter.
    @discardableResult
    private func update<T>(_ body: () -> T) -> T {
        lock.lock()
        let result = body()
        version += 1
        let waking = waiters
        waiters = []
        lock.unlock()
        for waiter in waking { waiter.resume() }
        return result
    }

    /// The open parked request that the task which made request `number` made after it, if any.
    private func nextParking(after number: Int) -> Int? {
        guard let identity = records.first(where: { $0.number == number })?.taskIdentity else {
            return nil
        }
        return records.last { $0.number > number && $0.taskIdentity == identity && $0.parked && $0.answers == 0 && !$0.isCallback }?.number
    }

    /// Whether request `number` is parked and, for a completion-handler request, not answered
    /// yet (its evidence lapses with the first answer).
    private func isOpenParked(_ number: Int) -> Bool {
        records.contains { $0.number == number && $0.parked && (!$0.isCallback || $0.answers == 0) }
    }

    /// Whether a trigger whose body returned has nothing left running: every task that inherited
    /// its tag has ended, or that work is parked in the source (a completion handler's
    /// follow-up load; for any other trigger, a request already reported as an adapter problem).
    private func leftoverIsSettled(_ number: Int, _ trigger: TriggerState) -> Bool {
        if trigger.workEnded { return true }
        return records.contains { $0.trigger == number && $0.answers == 0 && ($0.parked || $0.isCallback) }
    }

    /// Whether everything is settled, and which triggers to probe if not.
    private func evaluate() -> (seen: Int, done: Bool, probes: [Probe]) {
        let seen = version + 1
        if records.contains(where: { !$0.parked && $0.answers == 0 && !$0.isCallback }) {
            return (seen, false, [])
        }
        let parked = records.filter { $0.parked && !$0.isCallback }
        var done = true
        var probes: [Probe] = []
        for number in triggers.keys.sorted() {
            guard var trigger = triggers[number] else { continue }
            if trigger.returned {
                if !leftoverIsSettled(number, trigger) { done = false }
                continue
            }
            if let evidence = trigger.evidence {
                if evidence == .callback { continue }
                if let request = evidence.request, isOpenParked(request) {
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
            // parked task.
            // A trigger that spawned nothing still parked gets no guess: it will return, park
            // or join (an event) by itself; if it joins a load at its own priority, the
            // watchdog names that instead of a verdict resting on an assumption.
            var spawned = parked.filter { $0.trigger == number && !$0.fromTriggerTask }
            if let joined = inheritedJoins[number],
                let record = parked.first(where: { $0.number == joined })
            {
                spawned.append(record)
            }
            guard let target = spawned.last else {
                triggers[number] = trigger
                continue
            }
            trigger.probedAt = parkedVersion
            let floor = max(trigger.priority, spawned.map(\.priority).max() ?? 0)
            if usesEscalation, let rung = TimelineScheduler.ladder.first(where: { $0 > floor }) {
                trigger.priority = rung
                probes.append(Probe(trigger: number, task: task, priority: rung))
            } else {
                trigger.evidence = .assumed(request: target.number)
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
        return (seen, done, probes)
    }
}
