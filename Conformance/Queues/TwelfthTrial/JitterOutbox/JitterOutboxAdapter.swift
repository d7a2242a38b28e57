import Foundation
import WriteQueueContracts

/// Runs the conformance kit's write-queue contracts (Q1–Q12) against `JitterOutbox`.
///
/// Storage is the outbox directory; a crash is the kit dropping the actor and opening a new
/// one over the same directory (which runs the outbox's own launch-time restore).
enum JitterOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429],
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(60)),
        sensitiveFields: ["cardNumber", "cvv"])

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("JitterOutboxConformance", isDirectory: true)
            .appendingPathComponent(UUID().uuidString, isDirectory: true)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> JitterOutbox {
        let transport = environment.transport
        let clock = environment.clock
        return try JitterOutbox(
            directory: directory,
            send: { request in
                try await transport.send(
                    WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body)
                ).statusCode
            },
            sleep: { try await clock.sleep(for: $0) },
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: JitterOutbox) async throws {
        // The kit's operation ID ("op-1") rides along as the label; the outbox makes its own UUIDs.
        try await outbox.enqueue(endpoint: "/v1/orders", body: operation.body, label: operation.id)
    }

    static func runSendingPass(_ outbox: JitterOutbox) async throws {
        await outbox.flush()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        let stored = try JitterOutbox.storedOperations(in: directory)
        let queued = stored.queued.map { operation in
            PersistedTask(
                operationID: operation.label, key: operation.idempotencyKey, body: operation.body,
                status: operation.status == .inFlight ? .inFlight : .pending,
                attempts: operation.attempts,
                createdAt: String(operation.createdAt.timeIntervalSinceReferenceDate))
        }
        let failed = stored.failed.map { record in
            PersistedTask(
                operationID: record.operation.label, key: record.operation.idempotencyKey,
                body: record.operation.body, status: .needsAttention,
                attempts: record.operation.attempts,
                createdAt: String(record.operation.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: "rejected with HTTP \(record.statusCode)")
        }
        return queued + failed
    }

    static func diagnostics(of outbox: JitterOutbox, storage: URL) async -> [String] {
        await outbox.log
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}

