import WriteQueueContracts
import Foundation

enum ExpenseReceiptQueueAdapter: WriteQueueAdapter {
    // What the receipts API documents: 408, 425 and 429 mean "send the same request again later".
    static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 425, 429],
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(120)))

    /// The storage is the receipts folder.
    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("ExpenseReceipts-\(UUID().uuidString)", isDirectory: true)
    }

    static func launch(from storage: URL, environment: QueueEnvironment) async throws -> ExpenseReceiptQueue {
        let transport = environment.transport
        return try ExpenseReceiptQueue(
            folder: storage,
            send: { upload in
                try await transport.send(
                    WriteRequest(idempotencyKey: upload.idempotencyKey, body: upload.receiptJSON)
                ).statusCode
            },
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to queue: ExpenseReceiptQueue) async throws {
        try await queue.add(expenseRef: operation.id, receiptJSON: operation.body)
    }

    static func runSendingPass(_ queue: ExpenseReceiptQueue) async throws {
        await queue.uploadDueReceipts()
    }

    static func persistedTasks(in storage: URL) async throws -> [PersistedTask] {
        ExpenseReceiptQueue.storedReceipts(in: storage).map { receipt in
            PersistedTask(
                operationID: receipt.expenseRef,
                key: receipt.idempotencyKey,
                body: receipt.receiptJSON,
                status: receipt.status == .queued ? .pending : .needsAttention,
                attempts: receipt.uploadAttempts,
                createdAt: receipt.capturedAt,
                diagnostic: receipt.reviewNote)
        }
    }

    static func discardStorage(_ storage: URL) {
        try? FileManager.default.removeItem(at: storage)
    }
}
