import Foundation
import WriteQueueContracts

/// Drives the app-style ``ClientErrorMixupOutbox`` (in-memory store, a table-driven status
/// policy), unchanged, bug included: its table retries 400 and makes 429 final.
public enum ClientErrorMixupOutboxAdapter: WriteQueueAdapter {
    /// The classification the server's API contract gives (408 and 429 are retried, every
    /// other 4xx but 409 is final), as a team declares it: the queue's table
    /// (`retryableClientErrors = [400, 408]`) is what Q9 checks against it.
    public static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429],
        terminalStatusCodes: [400, 401, 403, 404, 410, 413, 422],
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(60)),  // cap's default
        sensitiveFields: ClientErrorMixupOutbox.sensitiveFields)

    /// The app's transport, sending through the kit's.
    struct Transport: ClientErrorMixupTransport {
        let kit: ControlledTransport
        func send(_ request: ClientErrorMixupRequest) async throws -> Int {
            try await kit.send(
                WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)
            ).statusCode
        }
    }

    public static func makeStorage() throws -> ClientErrorMixupStore { ClientErrorMixupStore() }

    public static func launch(
        from store: ClientErrorMixupStore, environment: QueueEnvironment
    ) async throws -> ClientErrorMixupOutbox {
        ClientErrorMixupOutbox(
            store: store, transport: Transport(kit: environment.transport), clock: environment.clock,
            now: environment.now)
    }

    public static func submit(_ operation: QueueOperation, to outbox: ClientErrorMixupOutbox) async throws {
        await outbox.submit(body: operation.body)
    }

    public static func runSendingPass(_ outbox: ClientErrorMixupOutbox) async throws { await outbox.flush() }

    public static func persistedTasks(in store: ClientErrorMixupStore) async throws -> [PersistedTask] {
        store.all().map { task in
            PersistedTask(
                operationID: task.id.uuidString, key: task.idempotencyKey, body: task.body,
                status: task.status == .pending ? .pending : .needsAttention, attempts: task.attempts,
                createdAt: "\(task.createdAt.timeIntervalSince1970)", diagnostic: task.diagnostic)
        }
    }

    /// The queue has no log; its diagnostics are the ones it stores on stopped tasks.
    public static func diagnostics(of outbox: ClientErrorMixupOutbox, storage: ClientErrorMixupStore) async -> [String] {
        storage.all().compactMap(\.diagnostic)
    }
}
