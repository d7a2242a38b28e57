import WriteQueueContracts
import Foundation

enum DraftStoreOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        coalescesUpdates: true,
        backoff: .capped(at: .seconds(ContactSyncEngine.maximumDelay)))

    static func makeStorage() throws -> PersistentStore { PersistentStore() }

    static func launch(from store: PersistentStore, environment: QueueEnvironment) async throws -> ContactSyncEngine {
        let transport = environment.transport
        return ContactSyncEngine(
            store: store, launch: environment.launch,
            post: { key, body in
                try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
            },
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to engine: ContactSyncEngine) async throws {
        let kind: ChangeKind = operation.entity.map { .update(contactID: $0) } ?? .create
        try await engine.record(label: operation.id, kind: kind, body: operation.body)
    }

    static func runSendingPass(_ engine: ContactSyncEngine) async throws {
        await engine.sync()
    }

    static func persistedTasks(in store: PersistentStore) async throws -> [PersistedTask] {
        store.fetchAll().map { row in
            let status: QueueTaskStatus =
                row.stopReason != nil ? .needsAttention : (row.sendingLaunch != nil ? .inFlight : .pending)
            return PersistedTask(
                operationID: row.label, key: row.idempotencyKey, body: row.body, status: status,
                attempts: row.attempts,
                createdAt: String(row.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: row.stopReason)
        }
    }
}
