import WriteQueueContracts
import Foundation

enum ShiftRequestOutboxAdapter: WriteQueueAdapter {
    // Our API: 408 and 429 are retried, every other 4xx stops the request
    // (the kit's default classification).
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true,
        backoff: .capped(at: .seconds(300)))

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> ShiftRequestOutbox {
        let transport = environment.transport
        let now = environment.now
        return try await MainActor.run {
            try ShiftRequestOutbox(directory: directory, send: { key, body in
                try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
            }, now: now)
        }
    }

    static func submit(_ operation: QueueOperation, to outbox: ShiftRequestOutbox) async throws {
        try await outbox.add(clientTag: operation.id, body: operation.body)
    }

    static func runSendingPass(_ outbox: ShiftRequestOutbox) async throws {
        await outbox.flush()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try ShiftRequestOutbox.storedEntries(at: ShiftRequestOutbox.fileURL(in: directory)).map { entry in
            PersistedTask(
                operationID: entry.clientTag, key: entry.idempotencyKey, body: entry.body,
                status: entry.status == .held ? .needsAttention : .pending,
                attempts: entry.attempts,
                createdAt: String(entry.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: entry.status == .held ? entry.failure?.message : nil)
        }
    }

    static func diagnostics(of outbox: ShiftRequestOutbox, storage: URL) async -> [String] {
        await outbox.activity
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
