import Foundation

// MARK: - Model

public enum LeaseTableOutboxStatus: String, Codable, Sendable {
    case pending
    case needsAttention
}

public struct LeaseTableOutboxTask: Codable, Sendable, Equatable {
    public let id: UUID
    public let idempotencyKey: String
    public let body: Data
    public let createdAt: Date
    public var status: LeaseTableOutboxStatus
    public var attempts: Int
    public var diagnostic: String?
}

public struct LeaseTableOutboxRequest: Sendable {
    public let method: String
    public let path: String
    public let headers: [String: String]
    public let body: Data
}

public struct LeaseTableOutboxResponse: Sendable {
    public let statusCode: Int
    public let body: Data
    public init(statusCode: Int, body: Data = Data()) {
        self.statusCode = statusCode
        self.body = body
    }
}

/// Throws for disconnects / timeouts (outcome unknown).
public protocol LeaseTableOutboxTransport: Sendable {
    func send(_ request: LeaseTableOutboxRequest) async throws -> LeaseTableOutboxResponse
}

// MARK: - "Disk"

/// Stands in for the on-disk table. Survives a simulated crash: keep this object,
/// drop the outbox, build a new outbox over the same store.
public final class LeaseTableOutboxStore: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [UUID: LeaseTableOutboxTask] = [:]

    public init() {}

    public func upsert(_ task: LeaseTableOutboxTask) {
        lock.lock(); defer { lock.unlock() }
        rows[task.id] = task
    }

    public func delete(_ id: UUID) {
        lock.lock(); defer { lock.unlock() }
        rows[id] = nil
    }

    public func row(_ id: UUID) -> LeaseTableOutboxTask? {
        lock.lock(); defer { lock.unlock() }
        return rows[id]
    }

    public func allRows() -> [LeaseTableOutboxTask] {
        lock.lock(); defer { lock.unlock() }
        return rows.values.sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }
}

// MARK: - Outbox

/// Offline outbox for `POST /items`.
///
/// Send leases are held in a lease table that belongs to this outbox instance
/// (process memory). They are never written to the store, so a crash (dropping the
/// instance) releases every lease and the next instance re-sends in-flight tasks
/// with the same key and bytes.
public actor LeaseTableOutbox {
    public static let sensitiveFields: Set<String> = ["password", "token", "secret"]

    private struct Lease {
        let token: UUID
    }

    private let store: LeaseTableOutboxStore
    private let transport: any LeaseTableOutboxTransport
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let baseDelay: Duration
    private let maxDelay: Duration
    private let maxAttemptsPerFlush: Int

    /// task id -> lease held by a running pass of *this* instance.
    private var leaseTable: [UUID: Lease] = [:]

    public init(
        store: LeaseTableOutboxStore,
        transport: any LeaseTableOutboxTransport,
        clock: any Clock<Duration>,
        now: @escaping @Sendable () -> Date,
        baseDelay: Duration = .seconds(1),
        maxDelay: Duration = .seconds(60),
        maxAttemptsPerFlush: Int = 4
    ) {
        self.store = store
        self.transport = transport
        self.clock = clock
        self.now = now
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxAttemptsPerFlush = max(1, maxAttemptsPerFlush)
    }

    /// Persists the task; nothing is sent until `flush()`.
    @discardableResult
    public func submit(body: Data) -> UUID {
        let task = LeaseTableOutboxTask(
            id: UUID(),
            idempotencyKey: UUID().uuidString,
            body: body,
            createdAt: now(),
            status: .pending,
            attempts: 0,
            diagnostic: nil
        )
        store.upsert(task)
        return task.id
    }

    public func tasks() -> [LeaseTableOutboxTask] {
        store.allRows()
    }

    /// One pass: every pending task that is not leased gets up to
    /// `maxAttemptsPerFlush` attempts. Before any retry the pass waits
    /// min(maxDelay, baseDelay * 2^(attempts-1)) on the injected clock.
    public func flush() async {
        let candidates = store.allRows().filter { $0.status == .pending }
        for candidate in candidates {
            if Task.isCancelled { return }
            guard let token = acquireLease(candidate.id) else { continue }
            await drive(candidate.id)
            releaseLease(candidate.id, token: token)
        }
    }

    // MARK: Leases

    private func acquireLease(_ id: UUID) -> UUID? {
        guard leaseTable[id] == nil else { return nil }
        let token = UUID()
        leaseTable[id] = Lease(token: token)
        return token
    }

    private func releaseLease(_ id: UUID, token: UUID) {
        if leaseTable[id]?.token == token {
            leaseTable[id] = nil
        }
    }

    // MARK: Sending

    private enum Outcome {
        case done
        case retry
        case terminal(String)
    }

    private func drive(_ id: UUID) async {
        var triesThisPass = 0
        while triesThisPass < maxAttemptsPerFlush {
            // Re-read: the row is the source of truth.
            guard let task = store.row(id), task.status == .pending else { return }
            if task.attempts > 0 {
                do {
                    try await clock.sleep(for: backoff(afterFailures: task.attempts))
                } catch {
                    return // cancelled: keep pending, lease released by caller
                }
            }
            triesThisPass += 1

            var sending = task
            sending.attempts += 1
            store.upsert(sending) // attempt counted before the request leaves

            let request = LeaseTableOutboxRequest(
                method: "POST",
                path: "/items",
                headers: [
                    "Content-Type": "application/json",
                    "Idempotency-Key": task.idempotencyKey,
                ],
                body: task.body
            )

            let outcome: Outcome
            do {
                let response = try await transport.send(request)
                outcome = classify(response.statusCode)
            } catch {
                outcome = .retry
            }

            switch outcome {
            case .done:
                store.delete(id)
                return
            case .terminal(let reason):
                guard var row = store.row(id) else { return }
                row.status = .needsAttention
                row.diagnostic = "op \(id.uuidString) key \(row.idempotencyKey): \(reason) after \(row.attempts) attempt(s)"
                store.upsert(row)
                return
            case .retry:
                continue
            }
        }
    }

    private func classify(_ status: Int) -> Outcome {
        switch status {
        case 200..<300: return .done
        case 409: return .terminal("HTTP 409 conflict: idempotency key was used with a different body; not resent")
        case 408, 429: return .retry
        case 400..<500: return .terminal("HTTP \(status) rejected by server; not resent")
        default: return .retry // 5xx and anything unexpected: outcome unknown
        }
    }

    private func backoff(afterFailures failures: Int) -> Duration {
        let exponent = min(max(failures - 1, 0), 30)
        let delay = baseDelay * (1 << exponent)
        return min(delay, maxDelay)
    }
}
