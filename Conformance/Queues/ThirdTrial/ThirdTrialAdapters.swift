import Foundation
import WriteQueueContracts

// Adapters for three correct queues of the third trial (the queues beside this file were written
// before their author read the kit, and are unchanged). The adapters are the author's own, as a
// new user wrote them from the README and guides, with `import ConformanceTesting` replaced by
// `import WriteQueueContracts` (this module is linked into an executable, which must not link
// the testing library).

/// Log lines an adapter collects from a queue's `log` closure.
final class ThirdTrialLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    init() {}
    func append(_ s: String) { lock.withLock { lines.append(s) } }
    var all: [String] { lock.withLock { lines } }
}

/// Creation time as an exact string (compared for equality only).
private func stamp(_ d: Date) -> String { String(d.timeIntervalSinceReferenceDate.bitPattern) }

extension ControlledTransport {
    /// Status code, or a thrown error for an unknown outcome.
    fileprivate func status(key: String, body: Data) async throws -> Int {
        try await send(WriteRequest(idempotencyKey: key, body: body)).statusCode
    }
}

/// `SerialFifoWorkerQueue`: strict first-in-first-out, a fixed 5 s retry of the head.
enum SerialFifoAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, backoff: .capped(at: .seconds(5)), sensitiveFields: ["password", "card"])
    static func makeStorage() throws -> FifoDisk { FifoDisk() }
    static func launch(from storage: FifoDisk, environment: QueueEnvironment) async throws -> SerialFifoWorkerQueue {
        let transport = environment.transport
        return SerialFifoWorkerQueue(disk: storage, clock: environment.clock, now: environment.now) { key, body in
            try await transport.status(key: key, body: body)
        }
    }
    static func submit(_ operation: QueueOperation, to queue: SerialFifoWorkerQueue) async throws {
        await queue.enqueue(operationID: operation.id, body: operation.body)
    }
    static func runSendingPass(_ queue: SerialFifoWorkerQueue) async throws { await queue.run() }
    static func persistedTasks(in storage: FifoDisk) async throws -> [PersistedTask] {
        storage.all.map {
            PersistedTask(
                operationID: $0.operationID, key: $0.key, body: $0.body,
                status: $0.state == .queued ? .pending : $0.state == .acknowledged ? .completed : .needsAttention,
                attempts: $0.tries, createdAt: stamp($0.createdAt), diagnostic: $0.note)
        }
    }
    static func diagnostics(of queue: SerialFifoWorkerQueue, storage: FifoDisk) async -> [String] {
        storage.all.compactMap(\.note)
    }
}

/// `LaunchRestoringQueue`: restores and sends from a `Task` its `init` starts.
enum LaunchRestoringAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, backoff: .capped(at: .seconds(90)), sendsOnLaunch: true,
        sensitiveFields: ["password", "card"])
    static func makeStorage() throws -> InMemoryLaunchQueueStorage { InMemoryLaunchQueueStorage() }
    static func launch(from storage: InMemoryLaunchQueueStorage, environment: QueueEnvironment) async throws
        -> LaunchRestoringQueue
    {
        let transport = environment.transport
        return LaunchRestoringQueue(storage: storage, now: environment.now) { headers, body in
            try await transport.status(key: headers["Idempotency-Key"]!, body: body)
        }
    }
    static func submit(_ operation: QueueOperation, to queue: LaunchRestoringQueue) async throws {
        queue.submit(operationID: operation.id, body: operation.body)
    }
    /// The kit's "startup pass" (sendsOnLaunch) awaits the queue's own launch task; later passes
    /// are ordinary `sendPending()` calls.
    static func runSendingPass(_ queue: LaunchRestoringQueue) async throws {
        await queue.launchCompleted()
        await queue.sendPending()
    }
    static func persistedTasks(in storage: InMemoryLaunchQueueStorage) async throws -> [PersistedTask] {
        storage.loadAll().sorted { $0.createdAt < $1.createdAt }.map {
            PersistedTask(
                operationID: $0.operationID, key: $0.idempotencyKey, body: $0.body,
                status: $0.state == .pending ? .pending : $0.state == .completed ? .completed : .needsAttention,
                attempts: $0.attemptCount, createdAt: stamp($0.createdAt), diagnostic: $0.diagnostic)
        }
    }
    static func diagnostics(of queue: LaunchRestoringQueue, storage: InMemoryLaunchQueueStorage) async -> [String] {
        storage.loadAll().compactMap(\.diagnostic)
    }
}

/// The bridge from `AuthRetryQueue`'s transport protocol to the kit's transport.
struct AuthRetryBridge: AuthRetryTransport {
    let transport: ControlledTransport
    func send(headers: [String: String], body: Data) async throws -> Int {
        try await transport.status(key: headers["Idempotency-Key"]!, body: body)
    }
}

/// What `AuthRetryQueue` keeps across a crash (the store) and the log lines it wrote.
final class AuthRetryStorage: Sendable {
    let store = AuthRetryStore()
    let logs = ThirdTrialLog()
}

/// `AuthRetryQueue`: this app's API says 401 means "token expired, retry with the same key";
/// declaring 401 retryable is enough (the default terminal set also lists it).
enum AuthRetryAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        retryableStatusCodes: [401, 408, 429], exposesDiagnostics: true, backoff: .capped(at: .seconds(60)),
        sensitiveFields: ["password", "card"])
    static func makeStorage() throws -> AuthRetryStorage { AuthRetryStorage() }
    static func launch(from storage: AuthRetryStorage, environment: QueueEnvironment) async throws -> AuthRetryQueue {
        let logs = storage.logs
        return AuthRetryQueue(
            store: storage.store, transport: AuthRetryBridge(transport: environment.transport),
            now: environment.now, log: { logs.append($0) })
    }
    static func submit(_ operation: QueueOperation, to queue: AuthRetryQueue) async throws {
        queue.submit(operationID: operation.id, body: operation.body)
    }
    static func runSendingPass(_ queue: AuthRetryQueue) async throws { await queue.runPass() }
    static func persistedTasks(in storage: AuthRetryStorage) async throws -> [PersistedTask] {
        storage.store.all().sorted { $0.createdAt < $1.createdAt }.map {
            let status: QueueTaskStatus
            switch $0.status {
            case .pending: status = .pending
            case .done: status = .completed
            default: status = .needsAttention
            }
            return PersistedTask(
                operationID: $0.operationID, key: $0.idempotencyKey, body: $0.body, status: status,
                attempts: $0.attempts, createdAt: stamp($0.createdAt), diagnostic: $0.diagnostic)
        }
    }
    static func diagnostics(of queue: AuthRetryQueue, storage: AuthRetryStorage) async -> [String] {
        storage.logs.all + storage.store.all().compactMap(\.diagnostic)
    }
}
