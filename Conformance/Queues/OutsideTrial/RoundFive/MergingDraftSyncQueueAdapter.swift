// From an outside trial (round five): the adapter its author wrote, names changed only.

import Foundation
import WriteQueueContracts

enum MergingDraftSyncQueueAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, coalescesUpdates: true, backoff: .capped(at: .seconds(8)))
    static func makeStorage() throws -> MergingDraftStore { MergingDraftStore() }
    static func launch(from storage: MergingDraftStore, environment: QueueEnvironment) async throws -> MergingDraftSyncQueue {
        let transport = environment.transport
        return MergingDraftSyncQueue(store: storage, now: environment.now) { key, body, done in
            transport.send(WriteRequest(idempotencyKey: key, body: body)) { result in
                done(try? result.get().statusCode)
            }
        }
    }
    static func submit(_ operation: QueueOperation, to queue: MergingDraftSyncQueue) async throws {
        queue.save(label: operation.id, draftID: operation.entity, body: operation.body)
    }
    static func runSendingPass(_ queue: MergingDraftSyncQueue) async throws {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in queue.sync { c.resume() } }
    }
    static func persistedTasks(in storage: MergingDraftStore) async throws -> [PersistedTask] {
        storage.all.map {
            PersistedTask(operationID: $0.label, key: $0.key, body: $0.body,
                          status: $0.failed ? .needsAttention : .pending, attempts: $0.attempts,
                          createdAt: String($0.rowID), diagnostic: $0.failure)
        }
    }
    static func diagnostics(of queue: MergingDraftSyncQueue, storage: MergingDraftStore) async -> [String] { queue.log }
    static func waitForPendingWork(in queue: MergingDraftSyncQueue) async { queue.barrier() }
}
