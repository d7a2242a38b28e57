import ConformanceKit
import Foundation
import Testing
import WriteQueueContracts

/// A queue whose launch starts a worker of its own (a loop over an `AsyncStream` of wake-ups,
/// woken by submits, flushes and its own retry timer) is settled through its sending pass: the
/// clock holds the timer, the kit plays it as a pass at its deadline, and every clock move gets
/// a pass once no call runs. A timer a pass re-arms is the queue's own as well; only a wait that
/// began outside every call (a detached task) is an adapter error.
@Suite("A worker of the queue's own")
struct QueueOwnWorkerTests {
    /// Rows that stand for the disk.
    final class Store: Sendable {
        struct Row: Sendable {
            let id: String
            let key: String
            let body: Data
            var due: ManualClock.Instant
            var attempts: Int
            /// Why it stopped (a 4xx other than 408 and 429), or `nil` while it is retried.
            var stopped: String? = nil
        }
        let rows = Locked<[Row]>(rawValue: [])
    }

    /// A worker loop with a retry timer; backoff doubles from 1 s, capped at `cap` unless
    /// `capped` is `false`.
    actor TimerOutbox {
        let store: Store
        let transport: ControlledTransport
        let clock: ManualClock
        let capped: Bool
        let cap: Duration = .seconds(8)
        private let wakeUps: AsyncStream<Void>
        private let wake: AsyncStream<Void>.Continuation
        private var worker: Task<Void, Never>?
        private var timer: Task<Void, Never>?
        private var waiters: [CheckedContinuation<Void, Never>] = []

        init(store: Store, transport: ControlledTransport, clock: ManualClock, capped: Bool) {
            self.store = store
            self.transport = transport
            self.clock = clock
            self.capped = capped
            (wakeUps, wake) = AsyncStream.makeStream(of: Void.self)
        }

        deinit {
            worker?.cancel()
            timer?.cancel()
        }

        func start() {
            guard worker == nil else { return }
            let wakeUps = self.wakeUps
            worker = Task { [weak self] in
                for await _ in wakeUps {
                    guard let self else { return }
                    await self.drain()
                }
            }
            wake.yield()
        }

        /// Runs after the work queued on the actor so far.
        func barrier() {}

        func submit(_ operation: QueueOperation) {
            store.rows.withLock {
                $0.append(.init(id: operation.id, key: UUID().uuidString, body: operation.body, due: clock.now, attempts: 0))
            }
            wake.yield()
        }

        func flush() async {
            await withCheckedContinuation { waiters.append($0); wake.yield() }
        }

        private func drain() async {
            let waiting = waiters
            waiters = []
            var handled: Set<String> = []
            while let row = store.rows.rawValue.first(where: { $0.due <= clock.now && $0.stopped == nil && !handled.contains($0.id) }) {
                handled.insert(row.id)
                let status = try? await transport.send(WriteRequest(idempotencyKey: row.key, body: row.body)).statusCode
                store.rows.withLock { rows in
                    guard let index = rows.firstIndex(where: { $0.id == row.id }) else { return }
                    if let status, (200..<300).contains(status) {
                        rows.remove(at: index)
                    } else if let status, (400..<500).contains(status), status != 408, status != 429 {
                        rows[index].stopped = "HTTP \(status): not resent"
                    } else {
                        rows[index].attempts += 1
                        let doubling = Duration.seconds(1 << min(rows[index].attempts - 1, 30))
                        rows[index].due = clock.now.advanced(by: capped ? min(doubling, cap) : doubling)
                    }
                }
            }
            timer?.cancel()
            if let next = store.rows.rawValue.filter({ $0.stopped == nil }).map(\.due).min() {
                let (clock, wake) = (self.clock, self.wake)
                timer = Task {
                    guard (try? await clock.wait(until: next)) != nil else { return }
                    wake.yield()
                }
            }
            for waiter in waiting { waiter.resume() }
        }
    }

    enum TimerOutboxAdapter: WriteQueueAdapter {
        static let capabilities = QueueCapabilities(backoff: .capped(at: .seconds(8)), sendsOnLaunch: true)
        static func makeStorage() throws -> Store { Store() }
        static func launch(from store: Store, environment: QueueEnvironment) async throws -> TimerOutbox {
            let outbox = TimerOutbox(store: store, transport: environment.transport, clock: environment.clock, capped: true)
            await outbox.start()
            return outbox
        }
        static func submit(_ operation: QueueOperation, to outbox: TimerOutbox) async throws {
            await outbox.submit(operation)
            await outbox.flush()
        }
        static func runSendingPass(_ outbox: TimerOutbox) async throws { await outbox.flush() }
        static func waitForPendingWork(in outbox: TimerOutbox) async { await outbox.barrier() }
        static func persistedTasks(in store: Store) async throws -> [PersistedTask] {
            store.rows.rawValue.map {
                PersistedTask(
                    operationID: $0.id, key: $0.key, body: $0.body, status: $0.stopped == nil ? .pending : .needsAttention,
                    attempts: $0.attempts, diagnostic: $0.stopped)
            }
        }
    }

    /// The same queue with the cap never applied.
    enum UncappedTimerOutboxAdapter: WriteQueueAdapter {
        static let capabilities = TimerOutboxAdapter.capabilities
        static func makeStorage() throws -> Store { Store() }
        static func launch(from store: Store, environment: QueueEnvironment) async throws -> TimerOutbox {
            let outbox = TimerOutbox(store: store, transport: environment.transport, clock: environment.clock, capped: false)
            await outbox.start()
            return outbox
        }
        static func submit(_ operation: QueueOperation, to outbox: TimerOutbox) async throws {
            try await TimerOutboxAdapter.submit(operation, to: outbox)
        }
        static func runSendingPass(_ outbox: TimerOutbox) async throws { await outbox.flush() }
        static func waitForPendingWork(in outbox: TimerOutbox) async { await outbox.barrier() }
        static func persistedTasks(in store: Store) async throws -> [PersistedTask] {
            try await TimerOutboxAdapter.persistedTasks(in: store)
        }
    }

    /// A queue whose sending pass re-arms a retry timer nothing awaits (a `Task` that sleeps
    /// until the next due time, then flushes), the way many drains are written. With
    /// `detached`, the timer is a `Task.detached`, which no call of the kit began.
    final class TimerQueue: Sendable {
        let store: Store
        let transport: ControlledTransport
        let clock: ManualClock
        let detached: Bool
        init(store: Store, transport: ControlledTransport, clock: ManualClock, detached: Bool) {
            self.store = store
            self.transport = transport
            self.clock = clock
            self.detached = detached
        }

        func submit(_ operation: QueueOperation) {
            store.rows.withLock {
                $0.append(.init(id: operation.id, key: UUID().uuidString, body: operation.body, due: clock.now, attempts: 0))
            }
        }

        func flush() async {
            for row in store.rows.rawValue where row.due <= clock.now {
                let status = try? await transport.send(WriteRequest(idempotencyKey: row.key, body: row.body)).statusCode
                store.rows.withLock { rows in
                    guard let index = rows.firstIndex(where: { $0.id == row.id }) else { return }
                    if let status, (200..<300).contains(status) {
                        rows.remove(at: index)
                    } else {
                        rows[index].attempts += 1
                        rows[index].due = clock.now.advanced(by: .seconds(2))
                    }
                }
            }
            guard let next = store.rows.rawValue.map(\.due).min() else { return }
            // Waiting until it has begun, so the kit sees it when the pass returns, every run.
            let waits = clock.pendingDeadlines.count
            let retry: @Sendable () async -> Void = { [clock] in
                guard (try? await clock.wait(until: next)) != nil else { return }
                await self.flush()
            }
            if detached { Task.detached { await retry() } } else { Task { await retry() } }
            await clock.waitUntilPending(count: waits + 1)
        }
    }

    enum PassLeavesTimerAdapter: WriteQueueAdapter {
        static let capabilities = QueueCapabilities(backoff: .capped(at: .seconds(8)))
        static func makeStorage() throws -> Store { Store() }
        static func launch(from store: Store, environment: QueueEnvironment) async throws -> TimerQueue {
            TimerQueue(store: store, transport: environment.transport, clock: environment.clock, detached: false)
        }
        static func submit(_ operation: QueueOperation, to queue: TimerQueue) async throws { queue.submit(operation) }
        static func runSendingPass(_ queue: TimerQueue) async throws { await queue.flush() }
        static func persistedTasks(in store: Store) async throws -> [PersistedTask] {
            try await TimerOutboxAdapter.persistedTasks(in: store)
        }
    }

    enum DetachedTimerAdapter: WriteQueueAdapter {
        static let capabilities = PassLeavesTimerAdapter.capabilities
        static func makeStorage() throws -> Store { Store() }
        static func launch(from store: Store, environment: QueueEnvironment) async throws -> TimerQueue {
            TimerQueue(store: store, transport: environment.transport, clock: environment.clock, detached: true)
        }
        static func submit(_ operation: QueueOperation, to queue: TimerQueue) async throws { queue.submit(operation) }
        static func runSendingPass(_ queue: TimerQueue) async throws { await queue.flush() }
        static func persistedTasks(in store: Store) async throws -> [PersistedTask] {
            try await TimerOutboxAdapter.persistedTasks(in: store)
        }
    }

    @Test("A correct worker queue passes every Q contract it can run", arguments: WriteQueueContract.all.map(\.id))
    func workerQueuePasses(_ id: ContractID) async throws {
        let report = try await #require(WriteQueueContract.contract(id)).run(against: TimerOutboxAdapter.self)
        #expect(report.outcome == .passed || report.outcome.word == "skipped", "\(report.fullText)")
    }

    @Test("Its retry timer is played as a pass at the deadline, so Q8 measures each delay exactly")
    func timerIsPlayed() async throws {
        let report = try await #require(WriteQueueContract.contract("Q8")).run(against: TimerOutboxAdapter.self)
        #expect(report.outcome == .passed, "\(report.fullText)")
        let lines = report.transcript.entries.map(\.text)
        #expect(lines.contains { $0.hasPrefix("the queue's own timer on instance #1 is due: sending pass #") })
        #expect(lines.contains { $0.contains("retry #3 of op-1 after 4 s") }, "\(report.transcript)")
    }

    @Test("The same worker queue with its cap never applied fails Q8, and only Q8", arguments: WriteQueueContract.all.map(\.id))
    func uncappedWorkerQueueFailsQ8(_ id: ContractID) async throws {
        let report = try await #require(WriteQueueContract.contract(id)).run(against: UncappedTimerOutboxAdapter.self)
        if id == "Q8" {
            #expect(report.outcome.word == "failed", "\(report.fullText)")
            #expect(report.outcome.violations.first?.summary.contains("cap") == true, "\(report.fullText)")
        } else {
            #expect(report.outcome == .passed || report.outcome.word == "skipped", "\(report.fullText)")
        }
    }

    @Test("A retry timer a sending pass leaves running is the queue's own too: played as a pass")
    func passTimerIsPlayed() async throws {
        let report = try await #require(WriteQueueContract.contract("Q2")).run(against: PassLeavesTimerAdapter.self)
        #expect(report.outcome == .passed, "\(report.fullText)")
        #expect(report.transcript.entries.contains { $0.text.hasPrefix("the queue's own timer on instance #1 is due") })
    }

    @Test("A wait outside every call (a detached task) is an adapter error")
    func detachedTimerIsAnAdapterError() async throws {
        let report = try await #require(WriteQueueContract.contract("Q2")).run(against: DetachedTimerAdapter.self)
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        #expect(violation.kind == .adapterError)
        #expect(violation.summary.contains("began outside every call of the kit"))
    }
}
