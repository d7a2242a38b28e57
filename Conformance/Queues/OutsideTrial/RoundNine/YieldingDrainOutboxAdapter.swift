// From an outside trial (round nine): the adapter its author wrote; the `@Test` function is
// dropped (the matrix runs the adapter).

import Foundation
import WriteQueueContracts

/// Maps the kit's calls onto `YieldingDrainOutbox`. The app builds the outbox with
/// `now: Date.init` and a URLSession-based `send`; here both come from the kit's environment.
enum YieldingDrainOutboxAdapter: WriteQueueAdapter {
    /// The fields the app's payment screens send and the outbox redacts in its log.
    static let sensitiveFields: Set<String> = ["cardNumber", "cvv"]

    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(30)),   // RetryPolicy default: base 1 s, cap 30 s
        sensitiveFields: sensitiveFields)
    // requestTimeout: left at the default (60 s): the outbox has no timeout of its own, the app's
    // URLSession uses the system default of 60 s.

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("YieldingDrainOutbox-\(UUID().uuidString)", isDirectory: true)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> YieldingDrainOutbox {
        let transport = environment.transport
        return try YieldingDrainOutbox(
            directory: directory,
            redactedFields: sensitiveFields,
            now: environment.now,
            send: { key, body in
                let response = try await transport.send(WriteRequest(idempotencyKey: key, body: body))
                return YieldingDrainOutbox.Response(status: response.statusCode, body: response.body)
            })
    }

    static func submit(_ operation: QueueOperation, to outbox: YieldingDrainOutbox) async throws {
        try await outbox.enqueue(label: operation.id, entity: operation.entity, body: operation.body)
    }

    static func runSendingPass(_ outbox: YieldingDrainOutbox) async throws {
        await outbox.flush()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try YieldingDrainOutbox.storedMutations(in: directory).map { mutation in
            PersistedTask(
                operationID: mutation.label,
                key: mutation.idempotencyKey,
                body: mutation.body,
                status: mutation.state == .needsAttention ? .needsAttention : .pending,
                attempts: mutation.attempts,
                createdAt: String(mutation.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: mutation.problem)
        }
    }

    static func diagnostics(of outbox: YieldingDrainOutbox, storage: URL) async -> [String] {
        await outbox.log
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
