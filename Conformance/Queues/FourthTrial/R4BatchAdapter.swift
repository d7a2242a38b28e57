import WriteQueueContracts
import Foundation

enum R4BatchAdapter: WriteQueueAdapter {
    static let capabilities = R4Glue.capabilities
    static func makeStorage() throws -> URL { try R4Glue.makeDirectory() }

    static func launch(from dir: URL, environment: QueueEnvironment) async throws -> R4BatchQueue {
        try R4BatchQueue(directory: dir, baseURL: R4Glue.baseURL, transport: R4Glue.transport(environment),
                         now: environment.now, log: R4Glue.logger(dir))
    }
    static func submit(_ operation: QueueOperation, to queue: R4BatchQueue) async throws {
        try await queue.enqueue(R4Glue.operation(operation))
    }
    static func runSendingPass(_ queue: R4BatchQueue) async throws { await queue.drain() }
    static func persistedTasks(in dir: URL) async throws -> [PersistedTask] {
        try await R4BatchQueue(directory: dir, baseURL: R4Glue.baseURL, transport: R4Glue.unusedTransport)
            .snapshot().map {
                PersistedTask(operationID: $0.operation.label, key: $0.idempotencyKey, body: $0.operation.body,
                              status: $0.failure == nil ? .pending : .needsAttention, attempts: $0.attempts,
                              createdAt: String($0.enqueuedAt.timeIntervalSinceReferenceDate), diagnostic: $0.failure)
            }
    }
    static func diagnostics(of queue: R4BatchQueue, storage dir: URL) async -> [String] {
        R4Glue.logLines(dir) + (await queue.snapshot()).compactMap(\.failure)
    }
    static func discardStorage(_ dir: URL) { try? FileManager.default.removeItem(at: dir) }
}
