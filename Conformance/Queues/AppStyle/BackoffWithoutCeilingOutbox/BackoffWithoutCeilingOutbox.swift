import Foundation

public struct BackoffWithoutCeilingTask: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case pending, needsAttention }

    public let id: UUID
    public let idempotencyKey: String
    public let body: Data
    public let createdAt: Date
    public var status: Status
    public var attempts: Int
    public var diagnostic: String?
}

public struct BackoffWithoutCeilingRequest: Sendable {
    public let path: String
    public let headers: [String: String]
    public let body: Data
}

public protocol BackoffWithoutCeilingTransport: Sendable {
    /// HTTP status; throws on disconnect / timeout.
    func send(_ request: BackoffWithoutCeilingRequest) async throws -> Int
}

public final class BackoffWithoutCeilingStore: @unchecked Sendable {
    private let lock = NSLock()
    private var tasks: [UUID: BackoffWithoutCeilingTask] = [:]
    public init() {}

    public func all() -> [BackoffWithoutCeilingTask] {
        lock.lock(); defer { lock.unlock() }
        return tasks.values.sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }
    func get(_ id: UUID) -> BackoffWithoutCeilingTask? {
        lock.lock(); defer { lock.unlock() }
        return tasks[id]
    }
    func save(_ t: BackoffWithoutCeilingTask) {
        lock.lock(); defer { lock.unlock() }
        tasks[t.id] = t
    }
    func delete(_ id: UUID) {
        lock.lock(); defer { lock.unlock() }
        tasks[id] = nil
    }
}

/// In-memory-store outbox with exponential backoff through an injected `sleep`.
/// Each flush gives a pending task up to `attemptsPerFlush` tries.
public actor BackoffWithoutCeilingOutbox {
    public static let sensitiveFields: Set<String> = ["password", "token"]

    private let store: BackoffWithoutCeilingStore
    private let transport: any BackoffWithoutCeilingTransport
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Date
    private let baseDelay: Duration
    private let attemptsPerFlush: Int
    private var inFlight: Set<UUID> = []

    public init(
        store: BackoffWithoutCeilingStore,
        transport: any BackoffWithoutCeilingTransport,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        now: @escaping @Sendable () -> Date,
        baseDelay: Duration = .seconds(1),
        attemptsPerFlush: Int = 5
    ) {
        self.store = store
        self.transport = transport
        self.sleep = sleep
        self.now = now
        self.baseDelay = baseDelay
        self.attemptsPerFlush = max(1, attemptsPerFlush)
    }

    @discardableResult
    public func submit(body: Data) -> UUID {
        let task = BackoffWithoutCeilingTask(
            id: UUID(),
            idempotencyKey: UUID().uuidString,
            body: body,
            createdAt: now(),
            status: .pending,
            attempts: 0,
            diagnostic: nil
        )
        store.save(task)
        return task.id
    }

    public func tasks() -> [BackoffWithoutCeilingTask] { store.all() }

    public func flush() async {
        for task in store.all() where task.status == .pending {
            guard !inFlight.contains(task.id) else { continue }
            inFlight.insert(task.id)
            defer { inFlight.remove(task.id) }
            for _ in 0..<attemptsPerFlush {
                guard let current = store.get(task.id), current.status == .pending else { break }
                if current.attempts > 0 {
                    do { try await sleep(delay(afterFailures: current.attempts)) } catch { return }
                }
                if await sendOnce(task.id) { break }
            }
        }
    }

    /// Returns true when the task is finished (sent or needs attention).
    private func sendOnce(_ id: UUID) async -> Bool {
        guard var task = store.get(id), task.status == .pending else { return true }
        task.attempts += 1
        store.save(task)

        let status: Int
        do {
            status = try await transport.send(BackoffWithoutCeilingRequest(
                path: "/items",
                headers: ["Idempotency-Key": task.idempotencyKey, "Content-Type": "application/json"],
                body: task.body
            ))
        } catch {
            return false
        }

        switch status {
        case 200..<300:
            store.delete(id)
            return true
        case 409:
            task.status = .needsAttention
            task.diagnostic = "409 Conflict for key \(task.idempotencyKey): different body on server"
            store.save(task)
            return true
        case 408, 429:
            return false
        case 400..<500:
            task.status = .needsAttention
            task.diagnostic = "HTTP \(status); not retried"
            store.save(task)
            return true
        default:
            return false
        }
    }

    /// 1 s, 2 s, 4 s, 8 s, ...
    private func delay(afterFailures failures: Int) -> Duration {
        var delay = baseDelay
        for _ in 1..<max(failures, 1) {
            delay *= 2 // BUG: doubles forever — there is no ceiling (no min(cap, ...)), so after ~10 failures the wait is hours/days
        }
        return delay
    }
}
