import Foundation
import WriteQueueContracts

/// Drives the app-style ``MainActorOutbox`` (a `@MainActor @Observable` view model over an
/// in-memory database object, restored synchronously in `init`), unchanged.
public enum MainActorOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(32)),  // backoffCap's default
        // `MainActorOutbox.sensitiveFields`, copied: the class's statics are main-actor isolated.
        sensitiveFields: ["password", "token", "cardNumber"])

    /// The app's API client, sending through the kit's transport.
    struct API: MainActorOutboxAPI {
        let kit: ControlledTransport
        func createItem(_ request: MainActorOutboxRequest) async throws -> Int {
            try await kit.send(
                WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)
            ).statusCode
        }
    }

    public static func makeStorage() throws -> MainActorOutboxDatabase { MainActorOutboxDatabase() }

    public static func launch(
        from database: MainActorOutboxDatabase, environment: QueueEnvironment
    ) async throws -> MainActorOutbox {
        let clock = environment.clock
        return await MainActorOutbox(
            database: database, api: API(kit: environment.transport),
            sleep: { delay in try await clock.sleep(for: delay) }, now: environment.now)
    }

    public static func submit(_ operation: QueueOperation, to outbox: MainActorOutbox) async throws {
        try await outbox.submit(body: operation.body)
    }

    public static func runSendingPass(_ outbox: MainActorOutbox) async throws { await outbox.flush() }

    public static func persistedTasks(in database: MainActorOutboxDatabase) async throws -> [PersistedTask] {
        database.readAll().map { task in
            PersistedTask(
                operationID: task.id.uuidString, key: task.idempotencyKey, body: task.body,
                status: task.status == .pending ? .pending : .needsAttention, attempts: task.attempts,
                createdAt: "\(task.createdAt.timeIntervalSince1970)", diagnostic: task.diagnostic)
        }
    }

    /// What the UI shows: the stored diagnostics and the banner text (`lastErrorMessage`).
    public static func diagnostics(of outbox: MainActorOutbox, storage: MainActorOutboxDatabase) async -> [String] {
        storage.readAll().compactMap(\.diagnostic) + [await outbox.lastErrorMessage].compactMap { $0 }
    }
}
