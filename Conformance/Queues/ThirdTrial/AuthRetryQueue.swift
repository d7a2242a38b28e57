// CORRECT queue #7 — "AuthRetry". Same lock-based service style as the B-queues, but this app's
// API contract says 401 means "access token expired": the app refreshes the token elsewhere and
// the task is retried later with the SAME key and body (401 is retryable here, like 408/429/5xx).
// 400/403/404/422 etc. are terminal; 409 needs attention.
import Foundation

public struct AuthRetryTask: Sendable, Equatable {
    public enum Status: String, Sendable { case pending, done, needsAttention, failed }
    public let id: String
    public let operationID: String
    public let body: Data
    public var idempotencyKey: String
    public let createdAt: Date
    public var status: Status
    public var attempts: Int
    public var nextAttemptAt: Date
    public var diagnostic: String?
}

public final class AuthRetryStore: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [String: AuthRetryTask] = [:]
    public init() {}
    public func all() -> [AuthRetryTask] { lock.withLock { Array(rows.values) } }
    func put(_ t: AuthRetryTask) { lock.withLock { rows[t.id] = t } }
    func get(_ id: String) -> AuthRetryTask? { lock.withLock { rows[id] } }
    func remove(_ id: String) { _ = lock.withLock { rows.removeValue(forKey: id) } }
}

public protocol AuthRetryTransport: Sendable {
    func send(headers: [String: String], body: Data) async throws -> Int
}

public final class AuthRetryQueue: @unchecked Sendable {
    public static let base: TimeInterval = 1, cap: TimeInterval = 60
    private let store: AuthRetryStore
    private let transport: any AuthRetryTransport
    private let now: @Sendable () -> Date
    private let log: @Sendable (String) -> Void
    private let lock = NSLock()
    private var inFlight: Set<String> = []

    public init(store: AuthRetryStore, transport: any AuthRetryTransport,
                now: @escaping @Sendable () -> Date, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.store = store; self.transport = transport; self.now = now; self.log = log
    }

    public func tasks() -> [AuthRetryTask] { store.all() }

    @discardableResult
    public func submit(operationID: String, body: Data) -> String {
        let t = now()
        let task = AuthRetryTask(id: UUID().uuidString, operationID: operationID, body: body,
                                   idempotencyKey: UUID().uuidString, createdAt: t, status: .pending,
                                   attempts: 0, nextAttemptAt: t, diagnostic: nil)
        store.put(task)
        return task.id
    }

    public func runPass() async {
        let t = now()
        let mine: [AuthRetryTask] = lock.withLock {
            let due = store.all().filter { $0.status == .pending && $0.nextAttemptAt <= t && !inFlight.contains($0.id) }
                .sorted { $0.createdAt < $1.createdAt }
            due.forEach { inFlight.insert($0.id) }
            return due
        }
        for task in mine {
            defer { _ = lock.withLock { inFlight.remove(task.id) } }
            let current = store.get(task.id) ?? task
            log("sending \(current.operationID) attempt \(current.attempts + 1)")
            let code: Int?
            do { code = try await transport.send(headers: ["Idempotency-Key": current.idempotencyKey,
                                                          "Content-Type": "application/json"],
                                                body: current.body) }
            catch { code = nil }
            guard var r = store.get(task.id) else { continue }
            r.attempts += 1
            switch code {
            case let c? where (200..<300).contains(c):
                r.status = .done
            case 409?:
                r.status = .needsAttention
                r.diagnostic = "409 conflict for \(r.operationID)"
            case let c? where c == 401 || c == 408 || c == 429 || c >= 500:
                r.nextAttemptAt = now().addingTimeInterval(Self.delay(r.attempts))
            case let c?:
                r.status = .failed
                r.diagnostic = "HTTP \(c) for \(r.operationID)"
            case nil:
                r.nextAttemptAt = now().addingTimeInterval(Self.delay(r.attempts))
            }
            store.put(r)
        }
    }

    public static func delay(_ attempts: Int) -> TimeInterval {
        min(cap, base * pow(2, Double(max(0, attempts - 1))))
    }
}
