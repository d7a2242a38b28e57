// From an outside trial (round five): the adapter its author wrote, names changed only.

import Foundation
import WriteQueueContracts

enum HeadOfLineOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, backoff: .capped(at: .seconds(20)),
        requestLayout: RequestLayout(addedFields: ["client_sent_at"]))
    static func makeStorage() throws -> HeadOfLineStore { HeadOfLineStore() }
    static func launch(from storage: HeadOfLineStore, environment: QueueEnvironment) async throws -> HeadOfLineOutbox {
        let transport = environment.transport
        return HeadOfLineOutbox(store: storage, post: { key, body in
            try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
        }, now: environment.now)
    }
    static func submit(_ operation: QueueOperation, to queue: HeadOfLineOutbox) async throws {
        await queue.enqueue(label: operation.id, payload: operation.body)
    }
    static func runSendingPass(_ queue: HeadOfLineOutbox) async throws { await queue.drain() }
    static func persistedTasks(in storage: HeadOfLineStore) async throws -> [PersistedTask] {
        storage.rowsSnapshot.map {
            PersistedTask(operationID: $0.label, key: $0.key, body: $0.payload,
                          status: $0.stopped ? .needsAttention : .pending, attempts: $0.attempts,
                          createdAt: String($0.seq), diagnostic: $0.diagnostic)
        }
    }
    static func diagnostics(of queue: HeadOfLineOutbox, storage: HeadOfLineStore) async -> [String] { await queue.log }
}
