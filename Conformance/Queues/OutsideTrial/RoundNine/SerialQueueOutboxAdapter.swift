// From an outside trial (round nine): the adapter its author wrote; the `@Test` function is
// dropped (the matrix runs the adapter).

import Foundation
import WriteQueueContracts

/// Bridges the completion-handler outbox to the kit's async calls.
/// Expected: fails Q7 (single sender) only; see README.md.
enum SerialQueueOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(16)),     // retryBase 1 s, retryCap 16 s
        sensitiveFields: ["password"])

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("SerialQueueOutbox-\(UUID().uuidString)", isDirectory: true)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> SerialQueueOutbox {
        let transport = environment.transport
        return try SerialQueueOutbox(directory: directory, now: environment.now) { request, completion in
            let write = WriteRequest(
                idempotencyKey: request.headers[SerialQueueOutbox.keyHeader], body: request.body)
            transport.send(write) { result in
                completion(result.map { InboundResponse(statusCode: $0.statusCode, body: $0.body) })
            }
        }
    }

    static func submit(_ operation: QueueOperation, to outbox: SerialQueueOutbox) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            outbox.enqueue(tag: operation.id, body: operation.body) { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            }
        }
    }

    static func runSendingPass(_ outbox: SerialQueueOutbox) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            outbox.sync { continuation.resume() }
        }
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try SerialQueueOutbox.storedWrites(in: directory).map { write in
            PersistedTask(
                operationID: write.tag,
                key: write.idempotencyKey,
                body: write.body,
                status: write.isParked ? .needsAttention : .pending,
                attempts: write.attempts,
                createdAt: String(write.enqueuedAt.timeIntervalSinceReferenceDate),
                diagnostic: write.parkReason)
        }
    }

    static func diagnostics(of outbox: SerialQueueOutbox, storage: URL) async -> [String] {
        await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            outbox.recentEvents { continuation.resume(returning: $0) }
        }
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The docs' barrier for a queue that works on serial DispatchQueues of its own.
    static func waitForPendingWork(in outbox: SerialQueueOutbox) async {
        outbox.waitUntilIdle()
    }
}
