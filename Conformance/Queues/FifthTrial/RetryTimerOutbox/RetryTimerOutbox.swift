import Foundation

/// Outbox drained on demand. When a drain leaves tasks waiting for a retry, a single
/// retry timer is armed for the earliest due time; re-arming cancels the previous timer.
public final class RetryTimerOutbox: @unchecked Sendable {
    public typealias Transport = @Sendable (_ idempotencyKey: String, _ body: Data) async throws -> Int

    public struct Settings: Sendable {
        public var initialBackoff: Duration
        public var maxBackoff: Duration

        public init(initialBackoff: Duration = .seconds(2), maxBackoff: Duration = .seconds(60)) {
            self.initialBackoff = initialBackoff
            self.maxBackoff = maxBackoff
        }
    }

    private let store: any RTTaskStore
    private let transport: Transport
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let settings: Settings

    // Guarded by `lock`.
    private let lock = NSLock()
    private var runningDrain: (id: Int, task: Task<Void, Never>)?
    private var drainCounter = 0
    private var retryTimer: Task<Void, Never>?
    private var logLines: [String] = []

    public init(
        store: any RTTaskStore,
        transport: @escaping Transport,
        clock: any Clock<Duration>,
        now: @escaping @Sendable () -> Date,
        settings: Settings = Settings()
    ) {
        self.store = store
        self.transport = transport
        self.clock = clock
        self.now = now
        self.settings = settings
    }

    deinit {
        retryTimer?.cancel()
    }

    public var log: [String] {
        lock.lock()
        defer { lock.unlock() }
        return logLines
    }

    // MARK: - App-facing API

    /// Call at launch: drains whatever a previous run left behind (in the background).
    public func start() {
        record("started")
        _ = drain()
    }

    @discardableResult
    public func submit(operation: String, body: Data) throws -> RTTask {
        let createdAt = now()
        let task = RTTask(
            id: UUID(),
            operation: operation,
            body: body,
            idempotencyKey: UUID().uuidString,
            createdAt: createdAt,
            nextAttemptAt: createdAt
        )
        try store.add(task)
        record("queued \(task.id) (\(operation)) key \(task.idempotencyKey)")
        return task
    }

    public func tasks() -> [RTTask] {
        (try? store.all()) ?? []
    }

    /// Drains now and returns when the drain is done. Joins a drain that is already running.
    public func flush() async {
        await drain().value
    }

    // MARK: - Drain

    /// Returns the running drain, or starts one.
    private func drain() -> Task<Void, Never> {
        lock.lock()
        defer { lock.unlock() }
        if let runningDrain {
            return runningDrain.task
        }
        drainCounter += 1
        let id = drainCounter
        let task = Task {
            let retryDelay = await self.sendDueTasks()
            self.drainFinished(id: id, retryDelay: retryDelay)
        }
        runningDrain = (id, task)
        return task
    }

    /// Clears the running drain and (re-)arms the retry timer in one step, so a timer that
    /// fires right away can never join the drain that armed it.
    private func drainFinished(id: Int, retryDelay: Duration?) {
        lock.lock()
        if runningDrain?.id == id {
            runningDrain = nil
        }
        retryTimer?.cancel()
        retryTimer = retryDelay.map(makeRetryTimer(after:))
        lock.unlock()

        if let retryDelay {
            record("retry timer armed for \(retryDelay)")
        }
    }

    private func makeRetryTimer(after delay: Duration) -> Task<Void, Never> {
        let clock = clock
        return Task { [weak self] in
            if delay > .zero {
                do {
                    try await clock.sleep(for: delay)
                } catch {
                    return
                }
            }
            guard !Task.isCancelled, let self else { return }
            await self.drain().value
        }
    }

    /// Sends every due task, oldest first, one at a time. Returns how long until the
    /// earliest remaining retry, or nil when nothing is waiting for one.
    private func sendDueTasks() async -> Duration? {
        let startedAt = now()
        let due: [RTTask]
        do {
            due = try store.all()
                .enumerated()
                .filter { $0.element.status == .pending && isDue($0.element, at: startedAt) }
                .sorted { ($0.element.createdAt, $0.offset) < ($1.element.createdAt, $1.offset) }
                .map(\.element)
        } catch {
            record("drain skipped: store unreadable (\(type(of: error)))")
            return nil
        }

        for task in due {
            await send(task)
        }

        guard let remaining = try? store.all().filter({ $0.status == .pending }),
              let earliest = remaining.map(\.nextAttemptAt).min()
        else { return nil }
        let wait = earliest.timeIntervalSince(now())
        return wait <= 0.001 ? .zero : .milliseconds(Int64((wait * 1000).rounded()))
    }

    private func send(_ task: RTTask) async {
        var task = task
        task.attempts += 1
        do {
            try store.replace(task)
        } catch {
            record("\(task.id): could not record attempt, not sending (\(type(of: error)))")
            return
        }

        let status: Int
        do {
            status = try await transport(task.idempotencyKey, task.body)
        } catch {
            retryLater(task, reason: "no response (\(type(of: error)))")
            return
        }

        switch status {
        case 200..<300:
            do {
                try store.remove(id: task.id)
                record("\(task.id) (\(task.operation)) delivered, HTTP \(status), attempt \(task.attempts)")
            } catch {
                record("\(task.id): delivered but could not be removed (\(type(of: error)))")
            }
        case 408, 429, 500..<600:
            retryLater(task, reason: "HTTP \(status)")
        case 400..<500:
            park(task, diagnostic: "rejected by server: HTTP \(status)")
        default:
            park(task, diagnostic: "unexpected response: HTTP \(status)")
        }
    }

    private func retryLater(_ task: RTTask, reason: String) {
        var task = task
        let delay = backoff(afterAttempt: task.attempts)
        task.nextAttemptAt = now().addingTimeInterval(seconds(of: delay))
        task.diagnostic = "attempt \(task.attempts): \(reason)"
        do {
            try store.replace(task)
            record("\(task.id) (\(task.operation)) \(reason), next attempt in \(delay)")
        } catch {
            record("\(task.id): could not schedule retry (\(type(of: error)))")
        }
    }

    private func park(_ task: RTTask, diagnostic: String) {
        var task = task
        task.status = .needsAttention
        task.diagnostic = diagnostic
        do {
            try store.replace(task)
            record("\(task.id) (\(task.operation)) needs attention: \(diagnostic)")
        } catch {
            record("\(task.id): could not park task (\(type(of: error)))")
        }
    }

    /// 2 s, 4 s, 8 s, ... capped at `maxBackoff`.
    private func backoff(afterAttempt attempt: Int) -> Duration {
        var delay = settings.initialBackoff
        var doublings = max(attempt - 1, 0)
        while doublings > 0 && delay < settings.maxBackoff {
            delay *= 2
            doublings -= 1
        }
        return min(delay, settings.maxBackoff)
    }

    private func isDue(_ task: RTTask, at date: Date) -> Bool {
        task.nextAttemptAt.timeIntervalSince(date) <= 0.001
    }

    private func record(_ line: String) {
        lock.lock()
        logLines.append(line)
        lock.unlock()
    }
}

private func seconds(of duration: Duration) -> TimeInterval {
    let parts = duration.components
    return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
}
