import WriteQueueContracts
import Foundation

enum FileFifoOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        storageIsOnDisk: true, backoff: .capped(at: .seconds(30)))

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("r7q-C-\(UUID().uuidString)")
    }

    static func launch(from folder: URL, environment: QueueEnvironment) async throws -> FileFifoOutbox {
        let transport = environment.transport
        return try FileFifoOutbox(
            folder: folder,
            transport: { request in
                try await transport.send(
                    WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)
                ).statusCode
            },
            clock: environment.clock, now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: FileFifoOutbox) async throws {
        try outbox.enqueue(path: "/v1/tickets", body: operation.body, tag: operation.id)
    }

    static func runSendingPass(_ outbox: FileFifoOutbox) async throws { await outbox.drain() }

    static func persistedTasks(in folder: URL) async throws -> [PersistedTask] {
        try FileFifoOutbox.entries(in: folder).map {
            PersistedTask(
                operationID: $0.tag, key: nil, body: $0.body,
                status: $0.failedPermanently ? .needsAttention : .pending, attempts: $0.failureCount,
                createdAt: String($0.enqueuedAt.timeIntervalSinceReferenceDate), diagnostic: $0.failureReason)
        }
    }

    static func discardStorage(_ folder: URL) { try? FileManager.default.removeItem(at: folder) }
}
