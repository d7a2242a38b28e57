import Foundation

/// The app's offline write queue.
///
/// `enqueue` stores the operation (with its idempotency key) before returning. `flush()` sends
/// queued operations one at a time, oldest first, and returns when nothing is left that could
/// still succeed. Retries wait with full-jitter exponential backoff on the injected `sleep`.
///
/// ```swift
/// let outbox = try JitterOutbox(
///     directory: appSupport.appendingPathComponent("Outbox"),
///     send: { try await api.post($0) },
///     sleep: { try await ContinuousClock().sleep(for: $0) },
///     now: Date.init)
/// ```
actor JitterOutbox {
    typealias Send = @Sendable (OutboxRequest) async throws -> Int
    typealias Sleep = @Sendable (Duration) async throws -> Void

    private let store: JitterOutboxStore
    private let send: Send
    private let sleep: Sleep
    private let now: @Sendable () -> Date
    private let backoff: FullJitterBackoff

    /// The running drain; a second `flush()` joins it instead of starting another sender.
    private var drain: Task<Void, Never>?

    /// Recent log lines (operation IDs, labels, status codes; never bodies).
    private(set) var log: [String] = []
    private let maxLogLines = 500

    /// Opens the outbox at `directory` and restores what a previous launch left behind.
    init(
        directory: URL,
        send: @escaping Send,
        sleep: @escaping Sleep,
        now: @escaping @Sendable () -> Date,
        backoff: FullJitterBackoff = FullJitterBackoff()
    ) throws {
        let store = try JitterOutboxStore(directory: directory)
        let restored = try store.restore()
        self.store = store
        self.send = send
        self.sleep = sleep
        self.now = now
        self.backoff = backoff
        self.log = ["launch: \(restored.queued) queued, \(restored.reset) reset from in flight"]
    }

    /// Reads an outbox directory without opening it (tests, debug screens).
    static func storedOperations(in directory: URL) throws
        -> (queued: [OutboxOperation], failed: [FailedOperation])
    {
        let store = try JitterOutboxStore(directory: directory)
        return (try store.loadAll(), try store.loadFailed())
    }

    // MARK: - Enqueue

    /// Stores a new operation with a fresh idempotency key. When this returns the operation
    /// survives a crash; nothing is sent until `flush()`.
    @discardableResult
    func enqueue(endpoint: String, body: Data, label: String) throws -> UUID {
        let operation = OutboxOperation(
            id: UUID(), label: label, endpoint: endpoint, body: body,
            idempotencyKey: UUID().uuidString, createdAt: now(),
            status: .pending, attempts: 0, nextAttemptAt: nil)
        try store.save(operation)
        record("enqueued \(operation.logName)")
        return operation.id
    }

    /// Operations the server rejected, newest first.
    func failedOperations() throws -> [FailedOperation] {
        try store.loadFailed().sorted { $0.failedAt > $1.failedAt }
    }

    // MARK: - Sending

    /// Sends everything queued. Returns when the queue is empty (rejected work is moved aside)
    /// or when the calling task is cancelled. Concurrent calls share one sender.
    func flush() async {
        if let drain {
            await drain.value
            return
        }
        let task = Task { await self.drainQueue() }
        drain = task
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        if drain == task { drain = nil }
    }

    private func drainQueue() async {
        while !Task.isCancelled {
            let queued: [OutboxOperation]
            do {
                queued = try store.loadAll().filter { $0.status == .pending }
            } catch {
                record("drain stopped: cannot read outbox (\(type(of: error)))")
                return
            }
            guard !queued.isEmpty else { return }

            let current = now()
            let due = queued
                .filter { ($0.nextAttemptAt ?? .distantPast) <= current }
                .min { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }

            guard let next = due else {
                // Everything left is backing off: wait for the earliest one.
                let wake = queued.compactMap(\.nextAttemptAt).min() ?? current
                let seconds = max(wake.timeIntervalSince(now()), 0.001)
                do { try await sleep(.milliseconds(Int((seconds * 1_000).rounded(.up)))) } catch { return }
                continue
            }

            do {
                try await deliver(next)
            } catch {
                record("drain stopped: cannot update \(next.logName) (\(type(of: error)))")
                return
            }
        }
    }

    /// One request for one operation, then its bookkeeping.
    private func deliver(_ queued: OutboxOperation) async throws {
        var operation = queued
        operation.status = .inFlight
        operation.attempts += 1
        try store.save(operation)

        let request = OutboxRequest(
            endpoint: operation.endpoint, idempotencyKey: operation.idempotencyKey, body: operation.body)
        let outcome: DeliveryOutcome
        do {
            outcome = DeliveryOutcome(statusCode: try await send(request))
        } catch is CancellationError {
            operation.status = .pending
            try store.save(operation)
            record("\(operation.logName) cancelled, stays queued")
            return
        } catch {
            outcome = .retry(reason: "network error (\(type(of: error)))")
        }

        switch outcome {
        case .delivered:
            try store.remove(operation.id)
            record("delivered \(operation.logName) after \(operation.attempts) attempt(s)")
        case .retry(let reason):
            let delay = backoff.delay(afterAttempts: operation.attempts)
            operation.status = .pending
            operation.nextAttemptAt = now().addingTimeInterval(delay.timeInterval)
            try store.save(operation)
            record("\(operation.logName) attempt \(operation.attempts): \(reason); retry in \(delay)")
        case .rejected(let statusCode):
            try store.markFailed(operation, statusCode: statusCode, at: now())
            record("\(operation.logName) rejected with HTTP \(statusCode); moved to failed")
        }
    }

    private func record(_ line: String) {
        log.append(line)
        if log.count > maxLogLines { log.removeFirst(log.count - maxLogLines) }
    }
}

extension Duration {
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
