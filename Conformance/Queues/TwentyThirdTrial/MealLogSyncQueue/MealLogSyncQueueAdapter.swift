import WriteQueueContracts
import Foundation

/// Storage is the outbox folder (one `.mealentry` file per entry). The queue works on a serial
/// `DispatchQueue` of its own with a completion-handler client, so the sending pass is bridged
/// with a continuation and `waitForPendingWork` is a barrier on that queue.
enum MealLogSyncQueueAdapter: WriteQueueAdapter {
    typealias Storage = URL
    typealias Queue = MealLogSyncQueue

    static let capabilities = QueueCapabilities(
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(MealLogSyncQueue.retryLadder.max() ?? 30)))

    static func makeStorage() throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("MealLogSyncQueue-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func launch(from storage: URL, environment: QueueEnvironment) async throws -> MealLogSyncQueue {
        let transport = environment.transport
        return MealLogSyncQueue(
            folder: storage,
            transport: { key, payload, completion in
                transport.send(WriteRequest(idempotencyKey: key, body: payload)) { result in
                    completion(result.map { $0.statusCode })
                }
            },
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to queue: MealLogSyncQueue) async throws {
        try queue.logMeal(operation.body, sourceOperation: operation.id)
    }

    static func runSendingPass(_ queue: MealLogSyncQueue) async throws {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            queue.sync { done.resume() }
        }
    }

    static func persistedTasks(in storage: URL) async throws -> [PersistedTask] {
        MealLogSyncQueue.storedEntries(in: storage).map { entry in
            PersistedTask(
                operationID: entry.sourceOperation, key: entry.idempotencyKey, body: entry.payload,
                status: entry.status == .queued ? .pending : .needsAttention, attempts: entry.attempts,
                createdAt: String(entry.loggedAt), diagnostic: entry.rejectionReason)
        }
    }

    static func waitForPendingWork(in queue: MealLogSyncQueue) async {
        queue.waitUntilIdle()
    }

    static func discardStorage(_ storage: URL) {
        try? FileManager.default.removeItem(at: storage)
    }
}
