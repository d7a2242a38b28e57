import Foundation

public struct ClientErrorMixupTask: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case pending, needsAttention }

    public let id: UUID
    public let idempotencyKey: String
    public let body: Data
    public let createdAt: Date
    public var status: Status
    public var attempts: Int
    public var diagnostic: String?
}

public struct ClientErrorMixupRequest: Sendable {
    public let path: String
    public let headers: [String: String]
    public let body: Data
}

public protocol ClientErrorMixupTransport: Sendable {
    /// HTTP status; throws on disconnect / timeout.
    func send(_ request: ClientErrorMixupRequest) async throws -> Int
}

public final class ClientErrorMixupStore: @unchecked Sendable {
    private let lock = NSLock()
    private var tasks: [UUID: ClientErrorMixupTask] = [:]
    public init() {}

    public func all() -> [ClientErrorMixupTask] {
        lock.lock(); defer { lock.unlock() }
        return tasks.values.sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }
    func get(_ id: UUID) -> ClientErrorMixupTask? {
        lock.lock(); defer { lock.unlock() }
        return tasks[id]
    }
    func save(_ t: ClientErrorMixupTask) {
        lock.lock(); defer { lock.unlock() }
        tasks[t.id] = t
    }
    func delete(_ id: UUID) {
        lock.lock(); defer { lock.unlock() }
        tasks[id] = nil
    }
}

/// Outbox with a table-driven response policy.
public actor ClientErrorMixupOutbox {
    public static let sensitiveFields: Set<String> = ["password", "token", "cardNumber"]

    private enum Disposition { case completed, retry, conflict, rejected }

    /// 4xx codes worth another try with the same key; every other 4xx is final.
    private static let retryableClientErrors: Set<Int> = [400, 408] // BUG: 400 (malformed request) is retried forever while 429 (rate limited) falls through to "final"; should be [408, 429]

    private let store: ClientErrorMixupStore
    private let transport: any ClientErrorMixupTransport
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let cap: Duration
    private var inFlight: Set<UUID> = []

    public init(
        store: ClientErrorMixupStore,
        transport: any ClientErrorMixupTransport,
        clock: any Clock<Duration>,
        now: @escaping @Sendable () -> Date,
        cap: Duration = .seconds(60)
    ) {
        self.store = store
        self.transport = transport
        self.clock = clock
        self.now = now
        self.cap = cap
    }

    @discardableResult
    public func submit(body: Data) -> UUID {
        let task = ClientErrorMixupTask(
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

    public func tasks() -> [ClientErrorMixupTask] { store.all() }

    /// One attempt per pending task; a task that failed before waits
    /// min(cap, 1 s * 2^(attempts-1)) on the clock first.
    public func flush() async {
        for task in store.all() where task.status == .pending {
            guard !inFlight.contains(task.id) else { continue }
            inFlight.insert(task.id)
            defer { inFlight.remove(task.id) }
            if task.attempts > 0 {
                do { try await clock.sleep(for: backoff(task.attempts)) } catch { return }
            }
            await sendOnce(task.id)
        }
    }

    private func sendOnce(_ id: UUID) async {
        guard var task = store.get(id), task.status == .pending else { return }
        task.attempts += 1
        store.save(task)

        let disposition: Disposition
        var code = 0
        do {
            code = try await transport.send(ClientErrorMixupRequest(
                path: "/items",
                headers: ["Idempotency-Key": task.idempotencyKey, "Content-Type": "application/json"],
                body: task.body
            ))
            disposition = Self.disposition(for: code)
        } catch {
            disposition = .retry
        }

        switch disposition {
        case .completed:
            store.delete(id)
        case .retry:
            break
        case .conflict:
            task.status = .needsAttention
            task.diagnostic = "409 Conflict: key \(task.idempotencyKey) already used with another body"
            store.save(task)
        case .rejected:
            task.status = .needsAttention
            task.diagnostic = "HTTP \(code): request rejected; will not resend"
            store.save(task)
        }
    }

    private static func disposition(for code: Int) -> Disposition {
        if (200..<300).contains(code) { return .completed }
        if code == 409 { return .conflict }
        if (400..<500).contains(code) {
            return retryableClientErrors.contains(code) ? .retry : .rejected
        }
        return .retry
    }

    private func backoff(_ failures: Int) -> Duration {
        let shift = min(max(failures - 1, 0), 24)
        return min(cap, .seconds(1) * (1 << shift))
    }
}
