import Foundation
import WriteQueueContracts

/// Drives the app-style ``DictionaryBodyOutbox`` (the body kept as a dictionary, encoded with
/// sorted keys at the first send, those bytes stored and reused), unchanged.
public enum DictionaryBodyOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(120)),  // maxDelay's default
        sensitiveFields: DictionaryBodyOutbox.sensitiveFields)

    /// The app's transport, posting through the kit's.
    struct Transport: DictionaryBodyOutboxTransport {
        let kit: ControlledTransport
        func post(_ request: DictionaryBodyOutboxRequest) async throws -> Int {
            try await kit.send(
                WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)
            ).statusCode
        }
    }

    public static func makeStorage() throws -> DictionaryBodyOutboxStore { DictionaryBodyOutboxStore() }

    public static func launch(
        from store: DictionaryBodyOutboxStore, environment: QueueEnvironment
    ) async throws -> DictionaryBodyOutbox {
        let clock = environment.clock
        return DictionaryBodyOutbox(
            store: store, transport: Transport(kit: environment.transport),
            sleep: { delay in try await clock.sleep(for: delay) }, now: environment.now)
    }

    /// The app's form layer hands the outbox a JSON object.
    public static func submit(_ operation: QueueOperation, to outbox: DictionaryBodyOutbox) async throws {
        try await outbox.submit(jsonObject: operation.body)
    }

    public static func runSendingPass(_ outbox: DictionaryBodyOutbox) async throws { try await outbox.flush() }

    /// The body is the stored wire bytes once sent; before that, the bytes the first send will
    /// make (the fields, encoded as the outbox encodes them).
    public static func persistedTasks(in store: DictionaryBodyOutboxStore) async throws -> [PersistedTask] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try store.all.map { record in
            PersistedTask(
                operationID: record.id.uuidString, key: record.idempotencyKey,
                body: try record.wireBody ?? encoder.encode(record.fields),
                status: record.status == .pending ? .pending : .needsAttention, attempts: record.attempts,
                createdAt: "\(record.createdAt.timeIntervalSince1970)", diagnostic: record.diagnostic)
        }
    }

    /// The queue has no log; its diagnostics are the ones it stores on stopped records.
    public static func diagnostics(of outbox: DictionaryBodyOutbox, storage: DictionaryBodyOutboxStore) async -> [String] {
        storage.all.compactMap(\.diagnostic)
    }
}
