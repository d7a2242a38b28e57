import ConformanceKit
import Foundation

/// A clock that moves only when told to: queues wait for backoff on it, and the kit advances it
/// explicitly. No wall-clock time is ever read.
///
/// ```swift
/// let clock = ManualClock()
/// let deadline = clock.now.advanced(by: .seconds(2))
/// let waiter = Task { try await clock.wait(until: deadline) }
/// clock.advance(by: .seconds(1))   // nothing wakes
/// clock.advance(by: .seconds(1))   // the waiter resumes
/// ```
///
/// A wait ends when the clock reaches its deadline, or with `CancellationError` when its task is
/// cancelled. A deadline already reached returns at once. ``wait(until:)`` and the `Clock`
/// protocol's sleeping requirement are the same wait: code written against `any Clock`
/// uses the latter, kit code the former (the kit never sleeps on real time).
public final class ManualClock: Clock, Sendable {
    /// A point on the manual clock: the time since the clock's origin.
    public struct Instant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
        /// The time since the clock's origin.
        public var offset: Duration

        /// Creates an instant at `offset` from the origin.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The clock's origin.
        public static let zero = Instant(offset: .zero)

        /// The instant `duration` after this one.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other` (negative when `other` is earlier).
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }

        public var description: String { "t=\(ManualClock.format(offset))" }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let trigger: Int?
        /// The identity of the waiting task.
        let task: Int?
        /// Whether the waiting task runs without the kit's task executor preference: an
        /// unstructured task (`Task { … }`) a call started, which the call may not await.
        let unstructured: Bool
        let continuation: CheckedContinuation<Void, any Error>
        /// The priority of the waiting task (raised when another task joins it).
        var priority: UInt8
    }

    private struct State {
        var current: Instant
        var sleepers: [Int: Sleeper] = [:]
        var cancelledBeforeWaiting: Set<Int> = []
        var frozenTriggers: Set<Int> = []
        /// Triggers whose waits the clock never resumes: the queue's own timers (see
        /// ``ManualClock/hold(trigger:)``).
        var heldTriggers: Set<Int> = []
        var nextID = 0
        var closed = false
        var observers: [@Sendable () -> Void] = []
        var joinObservers: [JoinObserver] = []
        var waiterWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        var lastDateRead: Date?

        func frozen(_ sleeper: Sleeper) -> Bool {
            sleeper.trigger.map { frozenTriggers.contains($0) } ?? false
        }

        func held(_ sleeper: Sleeper) -> Bool {
            sleeper.trigger.map { heldTriggers.contains($0) } ?? false
        }

        /// The waits of live (not crashed) triggers that the clock resumes (not held). Read
        /// through this method, not a closure over the locked state: a closure capturing the
        /// inout state copies all of it.
        var liveSleepers: [Sleeper] {
            sleepers.values.filter { !frozen($0) && !held($0) }
        }

        mutating func takeSatisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
            let satisfied = waiterWatchers.filter { $0.count <= sleepers.count }.map(\.continuation)
            waiterWatchers.removeAll { $0.count <= sleepers.count }
            return satisfied
        }
    }

    private let state: Locked<State>

    /// Creates a clock.
    /// - Parameter now: Where the clock starts; the origin by default.
    public init(now: Instant = .zero) {
        state = Locked(rawValue: State(current: now))
    }

    /// The current instant.
    public var now: Instant { state.withLock { $0.current } }

    /// The time of day at the clock's origin: 2026-01-01 00:00:00 UTC.
    public static let epoch = Date(timeIntervalSince1970: 1_767_225_600)

    /// The time of day now, for code that reads `Date()`: ``epoch`` plus the time the clock has
    /// moved.
    ///
    /// Like a real clock, it never returns one value twice: a read at the same instant as the
    /// previous one is one microsecond later than it (the offset never grows past the reads
    /// made since the clock last moved), so queues that order tasks by creation time never see
    /// a tie the app would not see.
    public var date: Date {
        state.withLock { state in
            var date = Self.epoch.addingTimeInterval(Self.seconds(state.current.offset))
            if let last = state.lastDateRead, date <= last { date = last.addingTimeInterval(0.000_001) }
            state.lastDateRead = date
            return date
        }
    }

    /// The time of day at `instant`, without the tie-breaking offset of ``date``.
    public func date(at instant: Instant) -> Date {
        Self.epoch.addingTimeInterval(Self.seconds(instant.offset))
    }

    /// The instant at which the clock shows `date`: for a queue that stores due dates.
    public func instant(at date: Date) -> Instant {
        Instant(offset: .milliseconds(Int64((date.timeIntervalSince(Self.epoch) * 1000).rounded(.up))))
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// Zero: the clock resolves any duration.
    public var minimumResolution: Duration { .zero }

    /// The `Clock` requirement: the same as ``wait(until:)``; no real time passes.
    /// - Parameters:
    ///   - deadline: The instant to wait for.
    ///   - tolerance: Ignored: the manual clock is exact.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await wait(until: deadline)
    }

    /// Suspends until the clock reaches `deadline`, or throws `CancellationError` when the task
    /// is cancelled.
    /// - Parameter deadline: The instant to wait for.
    public func wait(until deadline: Instant) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        // A task that awaits the waiting one (a pass joining a pass that waits for its backoff)
        // escalates it: the settling machinery learns who joined.
        let escalations = EscalationsBeforeRegistration<Escalation>()
        try await PriorityLadder.observingEscalation {
            try await suspend(id: id, until: deadline, escalations: escalations)
        } onEscalated: { new in
            // Who joined is read now, on the escalating task.
            let observers = self.state.withLock { $0.joinObservers }
            let escalation = Escalation(
                priority: UInt8(truncatingIfNeeded: new.rawValue),
                joins: observers.map { ($0, $0.witness()) })
            if escalations.deliver(escalation) != nil { self.noteEscalation(escalation, of: id) }
        }
    }

    /// An escalation of a waiting task, with what each join observer's witness read on the
    /// escalating task when it came.
    private struct Escalation: Sendable {
        let priority: UInt8
        let joins: [(observer: JoinObserver, joiner: Joiner)]
    }

    /// A task escalated the one waiting with identity `id`: it awaits it. One that came while
    /// the wait was registering is noted once it is registered (see
    /// ``EscalationsBeforeRegistration``).
    private func noteEscalation(_ escalation: Escalation, of id: Int) {
        let sleeper: Sleeper? = state.withLock { state in
            guard let sleeper = state.sleepers[id] else { return nil }
            state.sleepers[id]?.priority = max(sleeper.priority, escalation.priority)
            return sleeper
        }
        guard let sleeper else { return }
        for join in escalation.joins { join.observer.observe(sleeper.trigger, sleeper.task, join.joiner) }
    }

    private func suspend(
        id: Int, until deadline: Instant, escalations: EscalationsBeforeRegistration<Escalation>
    ) async throws {
        let trigger = TriggerContext.current
        let task = withUnsafeCurrentTask { $0?.hashValue }
        let unstructured = Self.waitsOutsideTaskExecutor
        let priority = UInt8(truncatingIfNeeded: Task.currentPriority.rawValue)
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (immediate, watchers, early):
                    (Result<Void, any Error>?, [CheckedContinuation<Void, Never>], [Escalation]) =
                    state.withLock { state in
                        if state.cancelledBeforeWaiting.remove(id) != nil || state.closed {
                            return (.failure(CancellationError()), [], [])
                        }
                        if deadline <= state.current { return (.success(()), [], []) }
                        let early = escalations.register(id)
                        state.sleepers[id] = Sleeper(
                            id: id, deadline: deadline, trigger: trigger, task: task, unstructured: unstructured,
                            continuation: continuation, priority: early.map(\.priority).reduce(priority, max))
                        return (nil, state.takeSatisfiedWatchers(), early)
                    }
                if let immediate {
                    continuation.resume(with: immediate)
                } else {
                    for escalation in early {
                        for join in escalation.joins { join.observer.observe(trigger, task, join.joiner) }
                    }
                    for watcher in watchers { watcher.resume() }
                    notifyObservers()
                }
            }
        } onCancel: {
            let sleeper: Sleeper? = state.withLock { state in
                if let sleeper = state.sleepers.removeValue(forKey: id) { return sleeper }
                state.cancelledBeforeWaiting.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` and resumes every wait whose deadline is reached,
    /// earliest first.
    /// - Parameter duration: How far to move; must not be negative.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "ManualClock cannot move backwards")
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to `instant` (never backwards) and resumes every wait whose deadline is
    /// reached, earliest first.
    /// - Parameter instant: The new current instant.
    public func advance(to instant: Instant) {
        let due: [Sleeper] = state.withLock { state in
            if instant > state.current { state.current = instant }
            let current = state.current
            let due = state.liveSleepers
                .filter { $0.deadline <= current }
                .sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
            for sleeper in due { state.sleepers[sleeper.id] = nil }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Moves the clock to `instant` (never backwards) without resuming any wait; the caller
    /// resumes the due waits one at a time with ``resumeEarliestDue()``.
    func move(to instant: Instant) {
        state.withLock { state in if instant > state.current { state.current = instant } }
    }

    /// Resumes the one live wait that is due and came first (earliest deadline, then earliest
    /// start). Returns `false` when no live wait is due.
    func resumeEarliestDue() -> Bool {
        let first: Sleeper? = state.withLock { state in
            let current = state.current
            let due = state.liveSleepers.filter { $0.deadline <= current }
            guard let first = due.min(by: { ($0.deadline, $0.id) < ($1.deadline, $1.id) }) else { return nil }
            state.sleepers[first.id] = nil
            return first
        }
        first?.continuation.resume()
        return first != nil
    }

    /// Suspends until at least `count` waits are pending on this clock.
    ///
    /// For tests that start a task which waits on the clock: advancing before the task waits
    /// would miss it. This resumes on the event of the wait starting, never by polling.
    /// - Parameter count: How many pending waits to wait for.
    public func waitUntilPending(count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready: Bool = state.withLock { state in
                if state.sleepers.count >= count { return true }
                state.waiterWatchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// The deadlines of every pending wait, earliest first.
    public var pendingDeadlines: [Instant] {
        state.withLock { $0.sleepers.values.map(\.deadline).sorted() }
    }

    /// The deadlines of the live waits, earliest first.
    var liveDeadlines: [Instant] {
        state.withLock { state in
            state.liveSleepers.map(\.deadline).sorted()
        }
    }

    /// The earliest deadline a wait of a live (not crashed) trigger is waiting for, or `nil`.
    var nextLiveDeadline: Instant? {
        state.withLock { state in state.liveSleepers.map(\.deadline).min() }
    }

    /// How many waits have begun so far (a new wait changes it; one that ends does not).
    var waitsBegun: Int {
        state.withLock { $0.nextID }
    }

    /// Whether the current task has no task executor preference. The kit runs every call with
    /// one, which child tasks inherit and unstructured tasks (`Task { … }`) do not. Where task
    /// executors do not exist, `false`.
    private static var waitsOutsideTaskExecutor: Bool {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            return withUnsafeCurrentTask { $0.map { $0.unownedTaskExecutor == nil } } ?? false
        }
        return false
    }

    /// Whether a live wait runs in an unstructured task (see `Sleeper.unstructured`): work the
    /// kit's executor does not see, which may be about to end that wait, or to send.
    var hasLiveUnstructuredWait: Bool {
        state.withLock { state in state.liveSleepers.contains { $0.unstructured } }
    }

    /// The triggers whose live waits in an unstructured task (see `Sleeper.unstructured`) end
    /// when the clock reaches `instant`.
    func triggersOfUnstructuredWaits(dueBy instant: Instant) -> Set<Int> {
        state.withLock { state in
            Set(state.liveSleepers.filter { $0.unstructured && $0.deadline <= instant }.compactMap(\.trigger))
        }
    }

    /// The identities of the tasks of live (not crashed) triggers that wait on the clock.
    var waitingTasks: Set<Int> {
        state.withLock { state in Set(state.liveSleepers.compactMap(\.task)) }
    }

    /// The triggers that have a wait pending; `nil` stands for waits outside any trigger.
    var waitingTriggers: [Int?] {
        state.withLock { $0.sleepers.values.map(\.trigger) }
    }

    /// Deadlines of the waits of `trigger`.
    func deadlines(of trigger: Int) -> [Instant] {
        state.withLock { state in
            state.sleepers.values.filter { $0.trigger == trigger }.map(\.deadline).sorted()
        }
    }

    /// Stops resuming the waits of `trigger`, now and from now on: they are the queue's own
    /// timers (work a call left running after it returned), which the kit plays by running a
    /// sending pass at their deadline instead (one wake-up, not two). They end with
    /// `CancellationError` when the queue cancels them or the timeline ends.
    func hold(trigger: Int) {
        state.withLock { _ = $0.heldTriggers.insert(trigger) }
    }

    /// The held waits of triggers that did not crash: identity, trigger and deadline, earliest
    /// deadline first.
    var heldWaits: [(id: Int, trigger: Int, deadline: Instant)] {
        state.withLock { state in
            state.sleepers.values.compactMap { sleeper -> (id: Int, trigger: Int, deadline: Instant)? in
                guard state.held(sleeper), !state.frozen(sleeper), let trigger = sleeper.trigger else { return nil }
                return (sleeper.id, trigger, sleeper.deadline)
            }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        }
    }

    /// Stops resuming the waits of crashed triggers: their process is gone. They end with
    /// `CancellationError` when their tasks are cancelled at the end of the timeline.
    func freeze(triggers: Set<Int>) {
        state.withLock { $0.frozenTriggers.formUnion(triggers) }
    }

    /// Ends every wait with `CancellationError`, now and from now on: the timeline is over.
    func close() {
        let (waiting, watchers): ([Sleeper], [CheckedContinuation<Void, Never>]) = state.withLock { state in
            state.closed = true
            defer {
                state.sleepers = [:]
                state.waiterWatchers = []
            }
            return (Array(state.sleepers.values), state.waiterWatchers.map(\.continuation))
        }
        for sleeper in waiting { sleeper.continuation.resume(throwing: CancellationError()) }
        for watcher in watchers { watcher.resume() }
    }

    /// Calls `observer` when a task awaiting a waiting task escalates it, with the waiting
    /// trigger, the waiting task's identity and what `witness` read on the escalating task when
    /// the escalation came (the settling machinery learns who joined, and which task). An
    /// escalation that comes while the wait registers is reported once it is registered.
    func addJoinObserver(
        witness: @escaping @Sendable () -> Joiner,
        _ observer: @escaping @Sendable (_ trigger: Int?, _ task: Int?, _ joiner: Joiner) -> Void
    ) {
        state.withLock { $0.joinObservers.append(JoinObserver(witness: witness, observe: observer)) }
    }

    /// A join observer: `witness` runs on the escalating task, `observe` once the wait is known.
    struct JoinObserver: Sendable {
        let witness: @Sendable () -> Joiner
        let observe: @Sendable (_ trigger: Int?, _ task: Int?, _ joiner: Joiner) -> Void
    }

    /// The highest priority of a live wait, or `nil` when nothing waits.
    var highestWaitPriority: UInt8? {
        state.withLock { state in state.liveSleepers.map(\.priority).max() }
    }

    /// Calls `observer` after every new wait (the settling machinery listens).
    func addObserver(_ observer: @escaping @Sendable () -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    private func notifyObservers() {
        let observers = state.withLock { $0.observers }
        for observer in observers { observer() }
    }

    /// `16 s`, `250 ms`.
    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if attoseconds == 0 { return "\(seconds) s" }
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }
}
