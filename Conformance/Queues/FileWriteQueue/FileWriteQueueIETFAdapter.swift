import Foundation
import ReferenceImplementations
import WriteQueueContracts

/// The reference ``FileWriteQueue`` configured for a server that follows the IETF
/// idempotency-key draft: 409 means "still being processed" (retry), 422 means "different body"
/// (stop). Q4 runs its IETF timeline against it.
package enum FileWriteQueueIETFAdapter: WriteQueueAdapter {
    static let policy = RetryPolicy(conflictMeansInFlight: true)

    package static let capabilities = QueueCapabilities(
        conflictProfile: .ietfDraft, retryableStatusCodes: policy.retryableClientErrors,
        exposesDiagnostics: true, storageIsOnDisk: true, backoff: .capped(at: policy.maximumDelay))

    package static func makeStorage() throws -> URL { try FileWriteQueueAdapter.makeStorage() }

    package static func launch(from storage: URL, environment: QueueEnvironment) async throws -> FileWriteQueue {
        try FileWriteQueue(
            directory: storage, transport: KitQueueTransport(transport: environment.transport),
            clock: KitQueueClock(clock: environment.clock), policy: policy)
    }

    package static func submit(_ operation: QueueOperation, to queue: FileWriteQueue) async throws {
        try await FileWriteQueueAdapter.submit(operation, to: queue)
    }

    package static func runSendingPass(_ queue: FileWriteQueue) async throws {
        try await queue.runSendingPass()
    }

    package static func persistedTasks(in storage: URL) async throws -> [PersistedTask] {
        try await FileWriteQueueAdapter.persistedTasks(in: storage)
    }

    package static func diagnostics(of queue: FileWriteQueue, storage: URL) async -> [String] {
        await queue.logLines()
    }

    package static func discardStorage(_ storage: URL) { FileWriteQueueAdapter.discardStorage(storage) }
}
