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
/// - the triggers' work is idle on their ``TriggerExecutor`` (no child task of a pass is still
///   on its way to the transport), and, for each trigger,
/// - it has returned; or a request sent under its task-local tag is parked; or it waits on the
///   clock; or requests of its launch arrived with no tag (sent from the app's own
///   `DispatchQueue` or a completion handler, where task-locals do not travel), at least one
///   for each running trigger of that launch without other evidence.
final class QueueStage: @unchecked Sendable {
    private struct Trigger {
        let number: Int
        let label: String
        let generation: Int
        var ending: String?
        var dead = false
    }

    private struct Parked {
        let send: ParkedSend
        let resume: @Sendable (Result<WriteResponse, any Error>) -> Void
    }

    let clock: ManualClock
    private let lock = NSLock()
    private var triggers: [Int: Trigger] = [:]
    /// The triggers that neither ended nor died: settling looks only at these.
    private var live: Set<Int> = []
    /// Triggers in the order they ended.
    private var endings: [Int] = []
    private var tasks: [Int: Task<Void, Never>] = [:]
    private var parked: [Int: Parked] = [:]
    private var sendCount = 0
    private var triggerCount = 0
    private var waiter: CheckedContinuation<Void, Never>?
    private var finishing = false
    private var deadInstances: Set<Int> = []
    private var events = 0
    private let executor: (any Sendable)?

    init(clock: ManualClock) {
        self.clock = clock
        let signal = SignalRelay()
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            executor = TriggerExecutor(becameIdle: { signal.fire() })
        } else {
            executor = nil
        }
        signal.target = { [weak self] in self?.signal() }
        clock.addObserver { [weak self] in self?.signal() }
    }

    /// Whether the triggers' executor has no job queued or running (always, where task
    /// executors do not exist).
    private var executorIsIdle: Bool {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *),
            let executor = executor as? TriggerExecutor
        {
            return executor.isIdle
        }
        return true
    }

    // MARK: Triggers

    /// Starts `body` as a trigger tagged with its number and returns the number.
    func start(
        _ label: String, generation: Int, _ body: @escaping @Sendable () async throws -> Void
    ) -> Int {
        let number = lock.withLock {
            triggerCount += 1
            triggers[triggerCount] = Trigger(number: triggerCount, label: label, generation: generation)
            live.insert(triggerCount)
            return triggerCount
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
        let task: Task<Void, Never>
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *),
            let executor = executor as? TriggerExecutor
        {
            task = Task(executorPreference: executor) { await run() }
        } else {
            task = Task { await run() }
        }
        lock.withLock { tasks[number] = task }
        return number
    }

    private func triggerReturned(_ number: Int, ending: String) {
        lock.withLock {
            triggers[number]?.ending = ending
            live.remove(number)
            endings.append(number)
        }
        signal()
    }

    /// How the trigger ended (`returned`, `threw …`), or `nil` while it runs.
    func ending(of trigger: Int) -> String? {
        lock.withLock { triggers[trigger]?.ending }
    }

    /// The label the trigger was started with.
    func label(of trigger: Int?) -> String {
        guard let trigger else { return "no trigger" }
        return lock.withLock { triggers[trigger]?.label } ?? "trigger \(trigger)"
    }

    /// Triggers that ended after the first `skipping` endings, with their label and how they
    /// ended, in the order they ended.
    func endedTriggers(skipping count: Int) -> [(number: Int, label: String, ending: String)] {
        lock.withLock {
            endings.dropFirst(count).compactMap { number in
                triggers[number].flatMap { trigger in trigger.ending.map { (number, trigger.label, $0) } }
            }
        }
    }

    /// Triggers of the live generations that have not returned.
    var runningTriggers: [Int] {
        lock.withLock {
            live.sorted()
        }
    }

    /// Kills every trigger of `generation`: the app process is gone. Returns the requests that
    /// die with it.
    func kill(generation: Int) -> [ParkedSend] {
        let (killed, sends): (Set<Int>, [ParkedSend]) = lock.withLock {
            var killed: Set<Int> = []
            for (number, trigger) in triggers where trigger.generation == generation {
                triggers[number]?.dead = true
                live.remove(number)
                killed.insert(number)
            }
            deadInstances.insert(generation)
            let sends = parked.values.map(\.send).filter { send in
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
        return try await withCheckedThrowingContinuation { continuation in
            register(request, instance: instance, trigger: trigger, layout: layout, isCallback: false) {
                continuation.resume(with: $0)
            }
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

    private func register(
        _ request: WriteRequest, instance: Int, trigger: Int?, layout: RequestLayout, isCallback: Bool,
        _ resume: @escaping @Sendable (Result<WriteResponse, any Error>) -> Void
    ) {
        let (key, body) = layout.normalize(request)
        let accepted: Bool = lock.withLock {
            guard !finishing else { return false }
            sendCount += 1
            let send = ParkedSend(
                number: sendCount, trigger: trigger, instance: instance,
                request: WriteRequest(idempotencyKey: key, body: body), rawBody: request.body,
                isCallback: isCallback)
            parked[sendCount] = Parked(send: send, resume: resume)
            return true
        }
        if accepted {
            signal()
        } else {
            resume(.failure(CancellationError()))
        }
    }

    /// Requests parked by live triggers, oldest first.
    var liveSends: [ParkedSend] {
        lock.withLock {
            parked.values.map(\.send).filter { send in
                guard let trigger = send.trigger.flatMap({ triggers[$0] }) else {
                    return send.trigger == nil && !deadInstances.contains(send.instance)
                        && hasRunningTrigger(instance: send.instance)
                }
                return !trigger.dead
            }.sorted { $0.number < $1.number }
        }
    }

    private func hasRunningTrigger(instance: Int) -> Bool {
        live.contains { triggers[$0]?.generation == instance }
    }

    /// Requests no live trigger awaits (sent from outside every trigger, or by work a trigger
    /// left running after it returned), oldest first.
    var orphanSends: [ParkedSend] {
        lock.withLock {
            parked.values.map(\.send).filter { send in
                guard let trigger = send.trigger.flatMap({ triggers[$0] }) else {
                    return !deadInstances.contains(send.instance) && !hasRunningTrigger(instance: send.instance)
                }
                return trigger.ending != nil && !trigger.dead
            }.sorted { $0.number < $1.number }
        }
    }

    /// Clock waits no live trigger is blocked on, by the trigger that started them.
    var orphanWaits: [Int?] {
        let waiting = clock.waitingTriggers
        return lock.withLock {
            waiting.filter { trigger in
                guard let state = trigger.flatMap({ triggers[$0] }) else { return true }
                return state.ending != nil && !state.dead
            }
        }
    }

    /// Answers a parked request.
    func resume(_ number: Int, with result: Result<WriteResponse, any Error>) {
        let entry = lock.withLock { parked.removeValue(forKey: number) }
        entry?.resume(result)
    }

    // MARK: Settling

    /// Returns when every live trigger has returned, or has a request parked, or waits on the
    /// clock. Events wake it; it never polls.
    func settle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let settled: Bool = lock.withLock {
                if isSettledLocked() { return true }
                waiter = continuation
                return false
            }
            if settled { continuation.resume() }
        }
    }

    /// How many events (a request registered, a wait began, a trigger returned, the executor
    /// went idle) the stage has seen: equal before and after a barrier means nothing moved.
    var eventCount: Int { lock.withLock { events } }

    private func signal() {
        let waiting: CheckedContinuation<Void, Never>? = lock.withLock {
            events += 1
            guard waiter != nil, isSettledLocked() else { return nil }
            defer { waiter = nil }
            return waiter
        }
        waiting?.resume()
    }

    private func isSettledLocked() -> Bool {
        guard executorIsIdle else { return false }
        let waiting = Set(clock.waitingTriggers.compactMap { $0 })
        let parkedBy = Set(parked.values.compactMap(\.send.trigger))
        var untagged: [Int: Int] = [:]
        for send in parked.values.map(\.send) where send.trigger == nil {
            untagged[send.instance, default: 0] += 1
        }
        var unexplained: [Int: Int] = [:]
        for trigger in live.compactMap({ triggers[$0] }) {
            if !parkedBy.contains(trigger.number) && !waiting.contains(trigger.number) {
                unexplained[trigger.generation, default: 0] += 1
            }
        }
        return unexplained.allSatisfy { instance, count in (untagged[instance] ?? 0) >= count }
    }

    // MARK: Finishing

    /// Ends the timeline: answers every open request with `CancellationError`, cancels every
    /// trigger (which ends their clock waits) and awaits them all, so no continuation leaks.
    func finish() async {
        let (open, running): ([Parked], [Task<Void, Never>]) = lock.withLock {
            finishing = true
            defer { parked = [:] }
            return (Array(parked.values), Array(tasks.values))
        }
        for entry in open { entry.resume(.failure(CancellationError())) }
        for task in running { task.cancel() }
        clock.close()
        for task in running { await task.value }
    }
}

/// Forwards the executor's "idle" event to the stage, which exists only after the executor.
private final class SignalRelay: @unchecked Sendable {
    private let lock = NSLock()
    private var handler: (@Sendable () -> Void)?

    var target: (@Sendable () -> Void)? {
        get { lock.withLock { handler } }
        set { lock.withLock { handler = newValue } }
    }

    func fire() { target?() }
}
