import Foundation
import WriteQueueContracts

/// Drives the app-style ``BackoffWithoutCeilingOutbox`` (in-memory store, `sleep` closure, up to
/// five attempts per flush), unchanged, bug included: its backoff has no ceiling.
public enum BackoffWithoutCeilingOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .uncapped,  // `delay(afterFailures:)` doubles with no `min(cap, …)`
        sensitiveFields: BackoffWithoutCeilingOutbox.sensitiveFields)

    /// The app's transport, sending through the kit's.
    struct Transport: BackoffWithoutCeilingTransport {
        let kit: ControlledTransport
        func send(_ request: BackoffWithoutCeilingRequest) async throws -> Int {
            try await kit.send(
                WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)
            ).statusCode
        }
    }

    public static func makeStorage() throws -> BackoffWithoutCeilingStore { BackoffWithoutCeilingStore() }

    public static func launch(
        from store: BackoffWithoutCeilingStore, environment: QueueEnvironment
    ) async throws -> BackoffWithoutCeilingOutbox {
        let clock = environment.clock
        return BackoffWithoutCeilingOutbox(
            store: store, transport: Transport(kit: environment.transport),
            sleep: { delay in try await clock.sleep(for: delay) }, now: environment.now)
    }

    public static func submit(_ operation: QueueOperation, to outbox: BackoffWithoutCeilingOutbox) async throws {
        await outbox.submit(body: operation.body)
    }

    public static func runSendingPass(_ outbox: BackoffWithoutCeilingOutbox) async throws { await outbox.flush() }

    public static func persistedTasks(in store: BackoffWithoutCeilingStore) async throws -> [PersistedTask] {
        store.all().map { task in
            PersistedTask(
                operationID: task.id.uuidString, key: task.idempotencyKey, body: task.body,
                status: task.status == .pending ? .pending : .needsAttention, attempts: task.attempts,
                createdAt: "\(task.createdAt.timeIntervalSince1970)", diagnostic: task.diagnostic)
        }
    }

    /// The queue has no log; its diagnostics are the ones it stores on stopped tasks.
    public static func diagnostics(
        of outbox: BackoffWithoutCeilingOutbox, storage: BackoffWithoutCeilingStore
    ) async -> [String] {
        storage.all().compactMap(\.diagnostic)
    }
}
