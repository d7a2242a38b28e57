import WriteQueueContracts
import Foundation

/// Runs `SyncOutbox` (a final class with an NSLock, in memory plus one JSON file) under the
/// write-queue contracts. Its sync waits on the kit's clock for entries that are backing off.
enum SyncOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(300)),
        sensitiveFields: ["card", "cvv"])

    static func makeStorage() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SyncOutbox-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> SyncOutbox {
        let transport = environment.transport
        return try SyncOutbox(
            directory: directory,
            post: { key, body in
                let response = try await transport.send(WriteRequest(idempotencyKey: key, body: body))
                return response.statusCode
            },
            clock: environment.clock,
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: SyncOutbox) async throws {
        try outbox.enqueue(label: operation.id, body: operation.body)
    }

    static func runSendingPass(_ outbox: SyncOutbox) async throws {
        await outbox.sync()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try SyncOutbox.storedEntries(in: directory).map { entry in
            PersistedTask(
                operationID: entry.label,
                key: entry.idempotencyKey,
                body: entry.body,
                status: entry.state == .needsAttention ? .needsAttention : .pending,
                attempts: entry.attempts,
                createdAt: String(entry.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: entry.state == .needsAttention ? entry.lastError : nil)
        }
    }

    static func diagnostics(of outbox: SyncOutbox, storage: URL) async -> [String] {
        outbox.log
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
