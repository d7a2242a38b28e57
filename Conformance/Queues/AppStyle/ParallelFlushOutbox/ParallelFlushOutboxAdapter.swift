import Foundation
import WriteQueueContracts

/// Drives the app-style ``ParallelFlushOutbox`` (claims every due task, then sends them all at
/// once in a task group, up to three attempts each with clock backoff), unchanged.
public enum ParallelFlushOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(64)),  // backoffCeiling's default
        sensitiveFields: ParallelFlushOutbox.sensitiveFields)

    /// The app's HTTP client, sending through the kit's transport.
    struct Client: ParallelFlushHTTPClient {
        let kit: ControlledTransport
        func perform(_ request: ParallelFlushHTTPRequest) async throws -> Int {
            try await kit.send(
                WriteRequest(idempotencyKey: request.headerFields["Idempotency-Key"], body: request.body)
            ).statusCode
        }
    }

    public static func makeStorage() throws -> ParallelFlushDisk { ParallelFlushDisk() }

    public static func launch(from disk: ParallelFlushDisk, environment: QueueEnvironment) async throws -> ParallelFlushOutbox {
        ParallelFlushOutbox(
            disk: disk, client: Client(kit: environment.transport), clock: environment.clock, now: environment.now)
    }

    public static func submit(_ operation: QueueOperation, to outbox: ParallelFlushOutbox) async throws {
        await outbox.enqueue(operation.body)
    }

    public static func runSendingPass(_ outbox: ParallelFlushOutbox) async throws { await outbox.flush() }

    public static func persistedTasks(in disk: ParallelFlushDisk) async throws -> [PersistedTask] {
        disk.loadAll().map { task in
            PersistedTask(
                operationID: task.operationID.uuidString, key: task.idempotencyKey, body: task.payload,
                status: task.state == .pending ? .pending : .needsAttention, attempts: task.attemptCount,
                createdAt: "\(task.createdAt.timeIntervalSince1970)", diagnostic: task.lastError)
        }
    }

    /// The queue has no log; its diagnostics are the errors it stores on stopped tasks.
    public static func diagnostics(of outbox: ParallelFlushOutbox, storage: ParallelFlushDisk) async -> [String] {
        storage.loadAll().compactMap(\.lastError)
    }
}
