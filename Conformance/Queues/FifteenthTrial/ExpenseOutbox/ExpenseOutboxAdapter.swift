import WriteQueueContracts
import Foundation

/// Adapter: `ExpenseOutbox` (completion handlers, all state on a private serial DispatchQueue,
/// one JSON file with due times) against the kit's write-queue contracts.
enum ExpenseOutboxAdapter: WriteQueueAdapter {
    static let sensitive: Set<String> = ["card", "cvv"]

    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(300)),   // ExpenseRetryPolicy.longestDelay
        sensitiveFields: sensitive
    )

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("ExpenseOutbox-\(UUID().uuidString)", isDirectory: true)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> ExpenseOutbox {
        let transport = environment.transport
        return try ExpenseOutbox(
            directory: directory,
            sensitiveFields: sensitive,
            now: environment.now,
            transport: { upload, done in
                transport.send(WriteRequest(idempotencyKey: upload.idempotencyKey, body: upload.payload)) { result in
                    done(result.map(\.statusCode))
                }
            })
    }

    static func submit(_ operation: QueueOperation, to outbox: ExpenseOutbox) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            outbox.add(reference: operation.id, payload: operation.body) { result in
                continuation.resume(with: result.map { _ in () })
            }
        }
    }

    static func runSendingPass(_ outbox: ExpenseOutbox) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            outbox.flush { continuation.resume() }
        }
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try ExpenseOutbox.storedRecords(in: directory).map { record in
            PersistedTask(
                operationID: record.reference,
                key: record.idempotencyKey,
                body: record.payload,
                status: record.state == .needsReview ? .needsAttention : .pending,
                attempts: record.attempts,
                createdAt: String(record.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: record.problem)
        }
    }

    static func diagnostics(of outbox: ExpenseOutbox, storage: URL) async -> [String] {
        outbox.log
    }

    static func waitForPendingWork(in outbox: ExpenseOutbox) async {
        outbox.waitUntilIdle()
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
