import Foundation

/// Outbox that syncs on a fixed tick. Failed tasks carry their backoff as a due time
/// (`nextAttemptAt`) and are picked up by the first sync after they become due.
public actor TickerOutbox {
    public typealias Transport = @Sendable (_ idempotencyKey: String, _ body: Data) async throws -> Int

    public struct Settings: Sendable {
        public var tick: Duration
        public var initialBackoff: Duration
        public var maxBackoff: Duration

        public init(
            tick: Duration = .seconds(15),
            initialBackoff: Duration = .seconds(1),
            maxBackoff: Duration = .seconds(32)
        ) {
            self.tick = tick
            self.initialBackoff = initialBackoff
            self.maxBackoff = maxBackoff
        }
    }

    private let store: any TOTaskStore
    private let transport: Transport
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let settings: Settings

    private var tickLoop: Task<Void, Never>?
    private var currentSync: Task<Void, Never>?
    public private(set) var log: [String] = []

    public init(
        store: any TOTaskStore,
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
        tickLoop?.cancel()
    }

    // MARK: - App-facing API

    /// Call once at launch. Starts the tick loop; calling it again is a no-op.
    public func start() {
        guard tickLoop == nil else { return }
        let clock = clock
        let tick = settings.tick
        tickLoop = Task { [weak self] in
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: tick)
                } catch {
                    return
                }
                guard let self else { return }
                await self.syncNow()
            }
        }
        record("ticker started, tick \(tick)")
    }

    public func stop() {
        tickLoop?.cancel()
        tickLoop = nil
    }

    @discardableResult
    public func submit(operation: String, body: Data) throws -> TOTaskRow {
        let createdAt = now()
        let row = TOTaskRow(
            id: UUID(),
            operation: operation,
            body: body,
            idempotencyKey: UUID().uuidString,
            createdAt: createdAt,
            nextAttemptAt: createdAt
        )
        try store.insert(row)
        record("queued \(row.id) (\(operation)) key \(row.idempotencyKey)")
        return row
    }

    nonisolated public func tasks() -> [TOTaskRow] {
        (try? store.loadAll()) ?? []
    }

    /// Runs a sync now and returns when it has finished. If a sync is already running,
    /// waits for it first, then runs a fresh one.
    public func syncNow() async {
        let previous = currentSync
        let sync = Task {
            await previous?.value
            await self.runSync()
        }
        currentSync = sync
        await sync.value
        if currentSync == sync {
            currentSync = nil
        }
    }

    // MARK: - Sync

    private func runSync() async {
        let startedAt = now()
        let due: [TOTaskRow]
        do {
            due = try store.loadAll()
                .enumerated()
                .filter { $0.element.status == .pending && Self.isDue($0.element, at: startedAt) }
                .sorted { ($0.element.createdAt, $0.offset) < ($1.element.createdAt, $1.offset) }
                .map(\.element)
        } catch {
            record("sync skipped: outbox unreadable (\(type(of: error)))")
            return
        }
        for row in due {
            await send(row)
        }
    }

    private func send(_ row: TOTaskRow) async {
        var row = row
        row.attempts += 1
        do {
            try store.update(row)
        } catch {
            record("\(row.id): could not record attempt, not sending (\(type(of: error)))")
            return
        }

        let statusCode: Int
        do {
            statusCode = try await transport(row.idempotencyKey, row.body)
        } catch {
            scheduleRetry(row, reason: "no response (\(type(of: error)))")
            return
        }

        switch statusCode {
        case 200...299:
            do {
                try store.delete(id: row.id)
                record("\(row.id) (\(row.operation)) done, HTTP \(statusCode), attempt \(row.attempts)")
            } catch {
                record("\(row.id): sent but could not be removed (\(type(of: error)))")
            }
        case 408, 429, 500...599:
            scheduleRetry(row, reason: "HTTP \(statusCode)")
        case 400...499:
            markNeedsAttention(row, diagnostic: "rejected by server: HTTP \(statusCode)")
        default:
            markNeedsAttention(row, diagnostic: "unexpected response: HTTP \(statusCode)")
        }
    }

    private func scheduleRetry(_ row: TOTaskRow, reason: String) {
        var row = row
        let delay = backoff(afterAttempt: row.attempts)
        row.nextAttemptAt = now().addingTimeInterval(toTimeInterval(delay))
        row.diagnostic = "attempt \(row.attempts): \(reason)"
        do {
            try store.update(row)
            record("\(row.id) (\(row.operation)) \(reason), retry in \(delay)")
        } catch {
            record("\(row.id): could not schedule retry (\(type(of: error)))")
        }
    }

    private func markNeedsAttention(_ row: TOTaskRow, diagnostic: String) {
        var row = row
        row.status = .needsAttention
        row.diagnostic = diagnostic
        do {
            try store.update(row)
            record("\(row.id) (\(row.operation)) stopped: \(diagnostic)")
        } catch {
            record("\(row.id): could not mark as needing attention (\(type(of: error)))")
        }
    }

    /// 1 s, 2 s, 4 s, ... capped at `maxBackoff`.
    private func backoff(afterAttempt attempt: Int) -> Duration {
        var delay = settings.initialBackoff
        for _ in 1..<max(attempt, 1) {
            if delay >= settings.maxBackoff { break }
            delay *= 2
        }
        return min(delay, settings.maxBackoff)
    }

    private static func isDue(_ row: TOTaskRow, at date: Date) -> Bool {
        // A millisecond of slack so Date rounding never makes a task miss the sync it was due for.
        row.nextAttemptAt.timeIntervalSince(date) <= 0.001
    }

    private func record(_ line: String) {
        log.append(line)
    }
}

private func toTimeInterval(_ duration: Duration) -> TimeInterval {
    let parts = duration.components
    return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
}
