import Foundation

public struct ParallelFlushItemTask: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable {
        case pending
        case needsAttention
    }

    public let operationID: UUID
    public let idempotencyKey: String
    public let payload: Data
    public let createdAt: Date
    public var state: State
    public var attemptCount: Int
    public var lastError: String?
}

public struct ParallelFlushHTTPRequest: Sendable, Equatable {
    public var method = "POST"
    public var path = "/items"
    public var headerFields: [String: String]
    public var body: Data
}

public enum ParallelFlushTransportError: Error, Sendable {
    case notConnected
    case timedOut
}

public protocol ParallelFlushHTTPClient: Sendable {
    /// Returns the HTTP status code; throws on connection loss / timeout.
    func perform(_ request: ParallelFlushHTTPRequest) async throws -> Int
}

/// The "disk". Encodes every row to JSON so what the outbox reads back after a
/// simulated crash is exactly what was persisted.
public final class ParallelFlushDisk: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [UUID: Data] = [:]

    public init() {}

    func save(_ task: ParallelFlushItemTask) {
        let data = try! JSONEncoder().encode(task) // encoding a plain Codable struct cannot fail
        lock.lock(); defer { lock.unlock() }
        files[task.operationID] = data
    }

    func delete(_ id: UUID) {
        lock.lock(); defer { lock.unlock() }
        files[id] = nil
    }

    func load(_ id: UUID) -> ParallelFlushItemTask? {
        lock.lock()
        let data = files[id]
        lock.unlock()
        return data.flatMap { try? JSONDecoder().decode(ParallelFlushItemTask.self, from: $0) }
    }

    public func loadAll() -> [ParallelFlushItemTask] {
        lock.lock()
        let all = Array(files.values)
        lock.unlock()
        return all
            .compactMap { try? JSONDecoder().decode(ParallelFlushItemTask.self, from: $0) }
            .sorted { ($0.createdAt, $0.operationID.uuidString) < ($1.createdAt, $1.operationID.uuidString) }
    }
}

/// A flush sends every due task concurrently in a task group. Each task is claimed
/// (in memory, per outbox instance) before its child task starts, so overlapping
/// flushes never put two requests for one task on the wire.
public actor ParallelFlushOutbox {
    public static let sensitiveFields: Set<String> = ["password", "token", "ssn"]

    private let disk: ParallelFlushDisk
    private let client: any ParallelFlushHTTPClient
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let initialBackoff: Duration
    private let backoffCeiling: Duration
    private let attemptsPerFlush: Int

    private var claims: Set<UUID> = []

    public init(
        disk: ParallelFlushDisk,
        client: any ParallelFlushHTTPClient,
        clock: any Clock<Duration>,
        now: @escaping @Sendable () -> Date,
        initialBackoff: Duration = .seconds(1),
        backoffCeiling: Duration = .seconds(64),
        attemptsPerFlush: Int = 3
    ) {
        self.disk = disk
        self.client = client
        self.clock = clock
        self.now = now
        self.initialBackoff = initialBackoff
        self.backoffCeiling = backoffCeiling
        self.attemptsPerFlush = max(1, attemptsPerFlush)
    }

    @discardableResult
    public func enqueue(_ payload: Data) -> UUID {
        let task = ParallelFlushItemTask(
            operationID: UUID(),
            idempotencyKey: UUID().uuidString,
            payload: payload,
            createdAt: now(),
            state: .pending,
            attemptCount: 0,
            lastError: nil
        )
        disk.save(task)
        return task.operationID
    }

    public func pendingTasks() -> [ParallelFlushItemTask] {
        disk.loadAll()
    }

    public func flush() async {
        let batch = claimDueTasks()
        guard !batch.isEmpty else { return }
        await withTaskGroup(of: Void.self) { group in
            for id in batch {
                group.addTask { await self.run(id) }
            }
        }
    }

    private func claimDueTasks() -> [UUID] {
        var claimed: [UUID] = []
        for task in disk.loadAll() where task.state == .pending && !claims.contains(task.operationID) {
            claims.insert(task.operationID)
            claimed.append(task.operationID)
        }
        return claimed
    }

    private func run(_ id: UUID) async {
        defer { claims.remove(id) }
        for _ in 0..<attemptsPerFlush {
            guard let task = disk.load(id), task.state == .pending else { return }
            if task.attemptCount > 0 {
                do {
                    try await clock.sleep(for: backoff(task.attemptCount))
                } catch {
                    return
                }
            }
            let stop = await sendOnce(id)
            if stop { return }
        }
    }

    /// Returns true when this task should not be retried in this flush: it finished
    /// (done / needs attention), vanished, or the flush was cancelled.
    private func sendOnce(_ id: UUID) async -> Bool {
        guard var task = disk.load(id), task.state == .pending else { return true }
        task.attemptCount += 1
        disk.save(task)

        let request = ParallelFlushHTTPRequest(
            headerFields: [
                "Content-Type": "application/json",
                "Idempotency-Key": task.idempotencyKey,
            ],
            body: task.payload
        )

        let status: Int
        do {
            status = try await client.perform(request)
        } catch {
            return Task.isCancelled
        }

        if (200..<300).contains(status) {
            disk.delete(id)
            return true
        }
        if status == 409 {
            task.state = .needsAttention
            task.lastError = "conflict (409): key \(task.idempotencyKey) already used for another body"
            disk.save(task)
            return true
        }
        // 400/401/403/404/410/413/422 and any other 4xx except 408/429 are final.
        if (400..<500).contains(status) && status != 408 && status != 429 {
            task.state = .needsAttention
            task.lastError = "client error \(status); needs attention"
            disk.save(task)
            return true
        }
        return false // 408, 429, 5xx: retry with the same key and bytes
    }

    private func backoff(_ failures: Int) -> Duration {
        var d = initialBackoff
        for _ in 1..<max(failures, 1) {
            d = d * 2
            if d >= backoffCeiling { return backoffCeiling }
        }
        return min(d, backoffCeiling)
    }
}
