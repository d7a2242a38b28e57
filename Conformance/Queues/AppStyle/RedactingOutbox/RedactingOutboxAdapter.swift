import Foundation
import WriteQueueContracts

/// Drives the app-style ``RedactingOutbox`` (logs every step with sensitive values masked),
/// unchanged.
public enum RedactingOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(60)),  // retryCap's default
        sensitiveFields: RedactingOutbox.sensitiveFields)

    /// The app's network layer, sending through the kit's transport.
    struct Network: RedactingOutboxNetwork {
        let kit: ControlledTransport
        func data(for request: RedactingOutboxRequest) async throws -> RedactingOutboxResponse {
            let response = try await kit.send(
                WriteRequest(idempotencyKey: request.allHTTPHeaderFields["Idempotency-Key"], body: request.httpBody))
            return RedactingOutboxResponse(statusCode: response.statusCode, body: response.body)
        }
    }

    public static func makeStorage() throws -> RedactingOutboxStorage { RedactingOutboxStorage() }

    public static func launch(
        from storage: RedactingOutboxStorage, environment: QueueEnvironment
    ) async throws -> RedactingOutbox {
        RedactingOutbox(
            storage: storage, network: Network(kit: environment.transport), clock: environment.clock,
            now: environment.now)
    }

    public static func submit(_ operation: QueueOperation, to outbox: RedactingOutbox) async throws {
        await outbox.submit(operation.body)
    }

    public static func runSendingPass(_ outbox: RedactingOutbox) async throws { await outbox.flush() }

    public static func persistedTasks(in storage: RedactingOutboxStorage) async throws -> [PersistedTask] {
        storage.snapshot().map { entry in
            PersistedTask(
                operationID: entry.id.uuidString, key: entry.idempotencyKey, body: entry.body,
                status: entry.status == .pending ? .pending : .needsAttention, attempts: entry.attempts,
                createdAt: "\(entry.createdAt.timeIntervalSince1970)", diagnostic: entry.diagnostic)
        }
    }

    /// Every log line of this instance, and the diagnostics stored on stopped entries.
    public static func diagnostics(of outbox: RedactingOutbox, storage: RedactingOutboxStorage) async -> [String] {
        await outbox.diagnostics + storage.snapshot().compactMap(\.diagnostic)
    }
}
