import WriteQueueContracts
import Foundation

struct COKitTransport: COTransport {
    let environment: QueueEnvironment
    func send(_ request: CORequest) async throws -> Int {
        try await environment.transport.send(
            WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)).statusCode
    }
}

struct CONeverTransport: COTransport {
    func send(_ request: CORequest) async throws -> Int { fatalError("the throwaway reader never sends") }
}

/// The storage value: a file-backed persistent store, shared by every instance (like two app processes
/// or an app and its extension opening one SQLite file).
struct COStorage: Sendable {
    let directory: URL
    let store: COPersistentStore
}

enum ContextOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true, sharesStorageBetweenInstances: true,
        backoff: .capped(at: .seconds(Int(ContextOutbox.backoffCap))),
        sensitiveFields: R6Fixture.sensitiveFields,
        requestTimeout: .seconds(Int(ContextOutbox.requestTimeout)))

    static func makeStorage() throws -> COStorage {
        let directory = try R6Fixture.temporaryDirectory("context")
        return COStorage(directory: directory,
                         store: COPersistentStore(fileURL: directory.appendingPathComponent("rows.json")))
    }

    static func launch(from storage: COStorage, environment: QueueEnvironment) async throws -> R6Instance<ContextOutbox> {
        let logs = R6LogSink()
        let outbox = ContextOutbox(context: StoreContext(store: storage.store),
                                   transport: COKitTransport(environment: environment),
                                   now: environment.now, log: logs.log)
        return R6Instance(outbox: outbox, logs: logs)
    }

    static func submit(_ operation: QueueOperation, to queue: R6Instance<ContextOutbox>) async throws {
        try await queue.outbox.submit(operation: operation.id, body: operation.body)
    }

    static func runSendingPass(_ queue: R6Instance<ContextOutbox>) async throws {
        await queue.outbox.drain()
    }

    static func persistedTasks(in storage: COStorage) async throws -> [PersistedTask] {
        let reader = ContextOutbox(context: StoreContext(store: storage.store), transport: CONeverTransport(),
                                   log: { _ in })
        return await reader.rows().map {
            PersistedTask(operationID: $0.operation, key: $0.idempotencyKey, body: $0.body,
                          status: $0.state == .failed ? .needsAttention : ($0.lockedUntil != nil ? .inFlight : .pending),
                          attempts: $0.attempts, diagnostic: $0.failureReason)
        }
    }

    static func diagnostics(of queue: R6Instance<ContextOutbox>, storage: COStorage) async -> [String] { queue.logs.all }

    static func discardStorage(_ storage: COStorage) { try? FileManager.default.removeItem(at: storage.directory) }
}
