import Foundation
import ReferenceImplementations
import WriteQueueContracts

/// The adapter of the reference ``FileWriteQueue``: storage is a fresh temporary directory, and
/// a launch opens the queue in it with the kit's transport and clock.
package enum FileWriteQueueAdapter: WriteQueueAdapter {
    /// The reference's policy: 1 s doubling to a 30 s cap, 408 and 429 retried.
    static let policy = RetryPolicy()

    package static let capabilities = QueueCapabilities(
        retryableStatusCodes: policy.retryableClientErrors,
        exposesDiagnostics: true, storageIsOnDisk: true, backoff: .capped(at: policy.maximumDelay))

    package static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("write-queue-\(UUID().uuidString)", isDirectory: true)
    }

    package static func launch(from storage: URL, environment: QueueEnvironment) async throws -> FileWriteQueue {
        try FileWriteQueue(
            directory: storage, transport: KitQueueTransport(transport: environment.transport),
            clock: KitQueueClock(clock: environment.clock), policy: policy)
    }

    package static func submit(_ operation: QueueOperation, to queue: FileWriteQueue) async throws {
        try await queue.submit(operationID: operation.id, body: operation.body)
    }

    package static func runSendingPass(_ queue: FileWriteQueue) async throws {
        try await queue.runSendingPass()
    }

    package static func persistedTasks(in storage: URL) async throws -> [PersistedTask] {
        try FileWriteQueue.storedTasks(in: storage).map(PersistedTask.init(stored:))
    }

    package static func diagnostics(of queue: FileWriteQueue, storage: URL) async -> [String] {
        await queue.logLines()
    }

    package static func discardStorage(_ storage: URL) {
        try? FileManager.default.removeItem(at: storage)
    }
}

extension PersistedTask {
    /// The kit's view of a reference task.
    init(stored task: StoredTask) {
        self.init(
            operationID: task.operationID, key: task.key, body: task.body,
            status: task.status == .pending ? .pending : .needsAttention, attempts: task.attempts,
            createdAt: "\(task.createdAt)", diagnostic: task.diagnostic)
    }
}
