import WriteQueueContracts
import Foundation

/// Adapter: `NoteSyncOutbox` (an actor, one JSON file per task) against the kit's write-queue contracts.
enum NoteSyncOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(300)),   // NoteRetryPolicy.maximumDelay
        sensitiveFields: ["card"]
    )

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("NoteSyncOutbox-\(UUID().uuidString)", isDirectory: true)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> NoteSyncOutbox<ManualClock> {
        let transport = environment.transport
        return try NoteSyncOutbox(
            directory: directory,
            send: { request in
                let response = try await transport.send(
                    WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body))
                return NoteResponse(statusCode: response.statusCode)
            },
            clock: environment.clock,
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: NoteSyncOutbox<ManualClock>) async throws {
        try await outbox.enqueue(label: operation.id, body: operation.body)
    }

    static func runSendingPass(_ outbox: NoteSyncOutbox<ManualClock>) async throws {
        await outbox.flush()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try NoteSyncOutbox<ManualClock>.stored(in: directory).map { task in
            PersistedTask(
                operationID: task.label,
                key: task.idempotencyKey,
                body: task.body,
                status: task.state == .needsAttention ? .needsAttention : .pending,
                attempts: task.attempts,
                createdAt: String(task.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: task.diagnostic)
        }
    }

    static func diagnostics(of outbox: NoteSyncOutbox<ManualClock>, storage: URL) async -> [String] {
        await outbox.log
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
