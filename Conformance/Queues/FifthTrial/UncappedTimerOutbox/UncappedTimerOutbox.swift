import Foundation

public struct UTRetryPolicy: Sendable {
    public var baseDelay: Duration
    /// Upper bound for the delay between two attempts.
    public var maximumDelay: Duration

    public init(baseDelay: Duration = .seconds(1), maximumDelay: Duration = .seconds(60)) {
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }
}

/// Sends queued writes when flushed, and schedules one wake-up timer for the next retry
/// whenever a flush leaves entries behind.
public final class UncappedTimerOutbox: Sendable {
    public typealias Transport = @Sendable (_ idempotencyKey: String, _ body: Data) async throws -> Int

    private let store: any UTEntryStore
    private let transport: Transport
    private let now: @Sendable () -> Date
    private let policy: UTRetryPolicy
    private let scheduler: UTFlushScheduler
    private let logBuffer = UTLogBuffer()

    public init(
        store: any UTEntryStore,
        transport: @escaping Transport,
        clock: any Clock<Duration>,
        now: @escaping @Sendable () -> Date,
        policy: UTRetryPolicy = UTRetryPolicy()
    ) {
        self.store = store
        self.transport = transport
        self.now = now
        self.policy = policy
        self.scheduler = UTFlushScheduler(clock: clock)
    }

    deinit {
        let scheduler = scheduler
        Task { await scheduler.cancelWakeUp() }
    }

    public var log: [String] { logBuffer.lines }

    public func start() {
        logBuffer.append("outbox started")
        Task { await self.flush() }
    }

    @discardableResult
    public func submit(operation: String, body: Data) throws -> UTOutboxEntry {
        let entry = UTOutboxEntry(operation: operation, payload: body, createdAt: now())
        try store.save(entry)
        logBuffer.append("enqueued \(entry.operation) \(entry.id) [\(entry.idempotencyKey)]")
        return entry
    }

    public func tasks() -> [UTOutboxEntry] {
        (try? store.entries()) ?? []
    }

    /// Flushes the outbox; if a flush is in progress this waits for that one instead.
    public func flush() async {
        await scheduler.flushTask { [weak self] in
            await self?.performFlush() ?? nil
        }.value
    }

    // MARK: - Flushing

    private func performFlush() async -> Duration? {
        let cutoff = now()
        let ready: [UTOutboxEntry]
        do {
            ready = try store.entries().filter { $0.state == .waiting && isReady($0, at: cutoff) }
        } catch {
            logBuffer.append("flush aborted: cannot read entries (\(type(of: error)))")
            return nil
        }

        for entry in ready {
            await deliver(entry)
        }

        let waiting = (try? store.entries().filter { $0.state == .waiting }) ?? []
        guard let nextRetry = waiting.map(\.retryAt).min() else { return nil }
        let interval = nextRetry.timeIntervalSince(now())
        if interval <= 0.001 { return .zero }
        return .milliseconds(Int64((interval * 1000).rounded()))
    }

    private func deliver(_ entry: UTOutboxEntry) async {
        var entry = entry
        entry.attemptCount += 1
        do {
            try store.save(entry)
        } catch {
            logBuffer.append("skipping \(entry.id): attempt not persisted (\(type(of: error)))")
            return
        }

        let result: Result<Int, any Error>
        do {
            result = .success(try await transport(entry.idempotencyKey, entry.payload))
        } catch {
            result = .failure(error)
        }

        switch result {
        case .success(let code) where (200...299).contains(code):
            try? store.delete(entry.id)
            logBuffer.append("\(entry.operation) \(entry.id) accepted with \(code)")
        case .success(let code) where code == 408 || code == 429 || (500...599).contains(code):
            reschedule(entry, because: "server answered \(code)")
        case .success(let code):
            entry.state = .needsAttention
            entry.lastError = (400...499).contains(code)
                ? "server refused the request (\(code))"
                : "unexpected status \(code)"
            try? store.save(entry)
            logBuffer.append("\(entry.operation) \(entry.id) needs attention: \(entry.lastError ?? "")")
        case .failure(let error):
            reschedule(entry, because: "request failed (\(type(of: error)))")
        }
    }

    private func reschedule(_ entry: UTOutboxEntry, because reason: String) {
        var entry = entry
        let delay = retryDelay(afterAttempt: entry.attemptCount)
        entry.retryAt = now().addingTimeInterval(delay)
        entry.lastError = reason
        do {
            try store.save(entry)
            logBuffer.append("\(entry.operation) \(entry.id): \(reason), retrying in \(delay)s")
        } catch {
            logBuffer.append("\(entry.id): retry not persisted (\(type(of: error)))")
        }
    }

    private func retryDelay(afterAttempt attempt: Int) -> TimeInterval {
        let base = Double(policy.baseDelay.components.seconds)
            + Double(policy.baseDelay.components.attoseconds) / 1e18
        return base * pow(2, Double(max(attempt - 1, 0))) // BUG: the cap is never applied
    }

    private func isReady(_ entry: UTOutboxEntry, at date: Date) -> Bool {
        entry.retryAt.timeIntervalSince(date) <= 0.001
    }
}

/// Serialises flushes and owns the single wake-up timer.
private actor UTFlushScheduler {
    private let clock: any Clock<Duration>
    private var inProgress: (token: UInt64, task: Task<Void, Never>)?
    private var lastToken: UInt64 = 0
    private var wakeUp: Task<Void, Never>?

    init(clock: any Clock<Duration>) {
        self.clock = clock
    }

    /// Returns the flush in progress, or starts `body` as a new one. `body` returns how long
    /// to wait before the next flush, or nil when nothing is left to retry.
    func flushTask(_ body: @escaping @Sendable () async -> Duration?) -> Task<Void, Never> {
        if let inProgress {
            return inProgress.task
        }
        lastToken += 1
        let token = lastToken
        let task = Task {
            let next = await body()
            self.flushEnded(token: token, next: next, body: body)
        }
        inProgress = (token, task)
        return task
    }

    func cancelWakeUp() {
        wakeUp?.cancel()
        wakeUp = nil
    }

    private func flushEnded(
        token: UInt64,
        next: Duration?,
        body: @escaping @Sendable () async -> Duration?
    ) {
        if inProgress?.token == token {
            inProgress = nil
        }
        wakeUp?.cancel()
        wakeUp = nil
        guard let next else { return }

        let clock = clock
        wakeUp = Task { [weak self] in
            if next > .zero {
                do {
                    try await clock.sleep(for: next)
                } catch {
                    return
                }
            }
            guard !Task.isCancelled, let self else { return }
            await self.flushTask(body).value
        }
    }
}

private final class UTLogBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    func append(_ line: String) {
        lock.lock()
        storage.append(line)
        lock.unlock()
    }
}
