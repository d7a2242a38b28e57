import WriteQueueContracts
import Foundation

/// Runs `TaskFileOutbox` (an actor, one JSON file per task) under the write-queue contracts.
enum TaskFileOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(120)),
        sensitiveFields: ["card", "cvv"])

    static func makeStorage() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("TaskFileOutbox-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> TaskFileOutbox {
        let transport = environment.transport
        return try TaskFileOutbox(
            directory: directory,
            transport: { key, body in
                let response = try await transport.send(WriteRequest(idempotencyKey: key, body: body))
                return response.statusCode
            },
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: TaskFileOutbox) async throws {
        try await outbox.submit(label: operation.id, body: operation.body)
    }

    static func runSendingPass(_ outbox: TaskFileOutbox) async throws {
        await outbox.sync()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try TaskFileOutbox.storedTasks(in: directory)
            .sorted { $0.createdAt < $1.createdAt }
            .map { task in
                PersistedTask(
                    operationID: task.label,
                    key: task.idempotencyKey,
                    body: try TaskFileOutbox.requestBody(for: task.payload),
                    status: task.status == .needsAttention ? .needsAttention : .pending,
                    attempts: task.attempts,
                    createdAt: String(task.createdAt.timeIntervalSinceReferenceDate),
                    diagnostic: task.status == .needsAttention ? task.failureReason : nil)
            }
    }

    static func diagnostics(of outbox: TaskFileOutbox, storage: URL) async -> [String] {
        await outbox.log
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
