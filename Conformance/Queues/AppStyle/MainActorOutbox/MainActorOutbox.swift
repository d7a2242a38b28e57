import Foundation
import Observation

public struct MainActorOutboxTask: Codable, Sendable, Equatable, Identifiable {
    public enum Status: String, Codable, Sendable { case pending, needsAttention }

    public let id: UUID
    public let idempotencyKey: String
    public let body: Data
    public let createdAt: Date
    public var status: Status
    public var attempts: Int
    public var diagnostic: String?
}

public struct MainActorOutboxRequest: Sendable {
    public let path: String
    public let headers: [String: String]
    public let body: Data
}

public protocol MainActorOutboxAPI: Sendable {
    /// Returns the HTTP status; throws on disconnect/timeout.
    func createItem(_ request: MainActorOutboxRequest) async throws -> Int
}

/// Persistent store stand-in (think: a small SQLite table). Thread-safe and
/// synchronous; keep the instance to simulate a relaunch.
public final class MainActorOutboxDatabase: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [UUID: Data] = [:]
    public init() {}

    public func readAll() -> [MainActorOutboxTask] {
        lock.lock()
        let blobs = Array(rows.values)
        lock.unlock()
        return blobs
            .compactMap { try? JSONDecoder().decode(MainActorOutboxTask.self, from: $0) }
            .sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }

    func write(_ task: MainActorOutboxTask) throws {
        let blob = try JSONEncoder().encode(task)
        lock.lock(); defer { lock.unlock() }
        rows[task.id] = blob
    }

    func delete(_ id: UUID) {
        lock.lock(); defer { lock.unlock() }
        rows[id] = nil
    }
}

/// View-model-style outbox the UI observes. State lives on the main actor; the
/// network call runs off it. A per-task in-flight set prevents overlapping
/// flushes (e.g. "app became active" + "network came back") from double-sending.
@MainActor
@Observable
public final class MainActorOutbox {
    public static let sensitiveFields: Set<String> = ["password", "token", "cardNumber"]

    public private(set) var tasks: [MainActorOutboxTask] = []
    public private(set) var isFlushing = false
    public private(set) var lastErrorMessage: String?

    public var pendingCount: Int { tasks.filter { $0.status == .pending }.count }
    public var needsAttentionCount: Int { tasks.filter { $0.status == .needsAttention }.count }

    @ObservationIgnored private let database: MainActorOutboxDatabase
    @ObservationIgnored private let api: any MainActorOutboxAPI
    @ObservationIgnored private let sleep: @Sendable (Duration) async throws -> Void
    @ObservationIgnored private let now: @Sendable () -> Date
    @ObservationIgnored private let backoffCap: Duration
    @ObservationIgnored private var inFlight: Set<UUID> = []
    @ObservationIgnored private var activeFlushes = 0

    public init(
        database: MainActorOutboxDatabase,
        api: any MainActorOutboxAPI,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        now: @escaping @Sendable () -> Date,
        backoffCap: Duration = .seconds(32)
    ) {
        self.database = database
        self.api = api
        self.sleep = sleep
        self.now = now
        self.backoffCap = backoffCap
        self.tasks = database.readAll() // synchronous restore: nothing can be submitted earlier
    }

    @discardableResult
    public func submit(body: Data) throws -> UUID {
        let task = MainActorOutboxTask(
            id: UUID(),
            idempotencyKey: UUID().uuidString,
            body: body,
            createdAt: now(),
            status: .pending,
            attempts: 0,
            diagnostic: nil
        )
        try database.write(task)
        tasks.append(task)
        return task.id
    }

    /// One attempt per pending task. A task that already failed waits
    /// min(backoffCap, 1 s * 2^(attempts-1)) before it is retried.
    public func flush() async {
        activeFlushes += 1
        isFlushing = true
        defer {
            activeFlushes -= 1
            isFlushing = activeFlushes > 0
        }

        for id in tasks.filter({ $0.status == .pending }).map(\.id) {
            guard !inFlight.contains(id), let task = task(id), task.status == .pending else { continue }
            inFlight.insert(id)
            defer { inFlight.remove(id) }

            if task.attempts > 0 {
                do { try await sleep(retryDelay(task.attempts)) } catch { return }
            }
            await send(id)
        }
    }

    private func send(_ id: UUID) async {
        guard var task = task(id), task.status == .pending else { return }
        task.attempts += 1
        do {
            try store(task)
        } catch {
            lastErrorMessage = "Could not save outbox"
            return
        }

        let status: Int
        do {
            status = try await api.createItem(MainActorOutboxRequest(
                path: "/items",
                headers: ["Idempotency-Key": task.idempotencyKey, "Content-Type": "application/json"],
                body: task.body
            ))
        } catch {
            lastErrorMessage = "Offline – will retry"
            return
        }

        switch status {
        case 200...299:
            database.delete(id)
            tasks.removeAll { $0.id == id }
            lastErrorMessage = nil
        case 409:
            task.status = .needsAttention
            task.diagnostic = "409 Conflict: key \(task.idempotencyKey) reused with a different body"
            try? store(task)
        case 408, 429:
            lastErrorMessage = "Server busy (\(status)) – will retry"
        case 400...499:
            task.status = .needsAttention
            task.diagnostic = "Rejected with HTTP \(status)"
            try? store(task)
        default:
            lastErrorMessage = "Server error (\(status)) – will retry"
        }
    }

    private func task(_ id: UUID) -> MainActorOutboxTask? {
        tasks.first { $0.id == id }
    }

    private func store(_ task: MainActorOutboxTask) throws {
        try database.write(task)
        if let index = tasks.firstIndex(where: { $0.id == task.id }) {
            tasks[index] = task
        }
    }

    private func retryDelay(_ failures: Int) -> Duration {
        let shift = min(max(failures - 1, 0), 20)
        return min(backoffCap, .seconds(1 << shift))
    }
}
