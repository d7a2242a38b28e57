import WriteQueueContracts
import Foundation

enum JournalOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true, backoff: .capped(at: .seconds(5)))

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("r7q-D-\(UUID().uuidString)")
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> JournalOutbox {
        let transport = environment.transport
        return try JournalOutbox(
            directory: directory,
            uploader: { upload in
                try await transport.send(WriteRequest(idempotencyKey: upload.idempotencyKey, body: upload.body)).statusCode
            },
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: JournalOutbox) async throws {
        try await outbox.add(route: "/v1/tickets", body: operation.body, label: operation.id)
    }

    static func runSendingPass(_ outbox: JournalOutbox) async throws { await outbox.processQueue() }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try JournalOutbox.pendingItems(in: directory).map {
            PersistedTask(
                operationID: $0.label, key: $0.key, body: $0.body,
                status: $0.conflict == nil ? .pending : .needsAttention, attempts: $0.attempts,
                createdAt: String($0.enqueuedAt.timeIntervalSinceReferenceDate), diagnostic: $0.conflict)
        }
    }

    static func diagnostics(of outbox: JournalOutbox, storage: URL) async -> [String] { await outbox.messages }
    static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
}
