import Foundation
import WriteQueueContracts

/// Drives the app-style ``LeaseTableOutbox`` (an actor over an in-memory store object, leases in
/// the actor, several attempts per flush with clock backoff), unchanged.
public enum LeaseTableOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(60)),  // maxDelay's default
        sensitiveFields: LeaseTableOutbox.sensitiveFields)

    /// The app's transport, sending through the kit's.
    struct Transport: LeaseTableOutboxTransport {
        let kit: ControlledTransport
        func send(_ request: LeaseTableOutboxRequest) async throws -> LeaseTableOutboxResponse {
            let response = try await kit.send(
                WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body))
            return LeaseTableOutboxResponse(statusCode: response.statusCode, body: response.body)
        }
    }

    public static func makeStorage() throws -> LeaseTableOutboxStore { LeaseTableOutboxStore() }

    public static func launch(
        from store: LeaseTableOutboxStore, environment: QueueEnvironment
    ) async throws -> LeaseTableOutbox {
        LeaseTableOutbox(
            store: store, transport: Transport(kit: environment.transport), clock: environment.clock,
            now: environment.now)
    }

    public static func submit(_ operation: QueueOperation, to outbox: LeaseTableOutbox) async throws {
        await outbox.submit(body: operation.body)
    }

    public static func runSendingPass(_ outbox: LeaseTableOutbox) async throws { await outbox.flush() }

    public static func persistedTasks(in store: LeaseTableOutboxStore) async throws -> [PersistedTask] {
        store.allRows().map { task in
            PersistedTask(
                operationID: task.id.uuidString, key: task.idempotencyKey, body: task.body,
                status: task.status == .pending ? .pending : .needsAttention, attempts: task.attempts,
                createdAt: "\(task.createdAt.timeIntervalSince1970)", diagnostic: task.diagnostic)
        }
    }

    /// The queue has no log; its diagnostics are the ones it stores on stopped tasks.
    public static func diagnostics(of outbox: LeaseTableOutbox, storage: LeaseTableOutboxStore) async -> [String] {
        storage.allRows().compactMap(\.diagnostic)
    }
}
