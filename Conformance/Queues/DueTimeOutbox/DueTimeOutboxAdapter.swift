import Foundation
import WriteQueueContracts

/// Drives ``DueTimeOutbox``: the kit's passes play the periodic sync.
enum DueTimeOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(backoff: .capped(at: DueTimeOutbox.maximumDelay))

    static func makeStorage() throws -> DueTimeStore { DueTimeStore() }

    static func launch(from store: DueTimeStore, environment: QueueEnvironment) async throws -> DueTimeOutbox {
        let transport = environment.transport
        let clock = environment.clock
        return DueTimeOutbox(
            store: store,
            post: { key, body in
                try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
            },
            now: { clock.now.offset })
    }

    static func submit(_ operation: QueueOperation, to outbox: DueTimeOutbox) async throws {
        await outbox.enqueue(id: operation.id, body: operation.body)
    }

    static func runSendingPass(_ outbox: DueTimeOutbox) async throws {
        await outbox.flush()
    }

    static func persistedTasks(in store: DueTimeStore) async throws -> [PersistedTask] {
        store.all.map { item in
            let status: QueueTaskStatus
            var diagnostic: String?
            switch item.state {
            case .pending: status = .pending
            case .completed: status = .completed
            case .needsAttention(let reason): (status, diagnostic) = (.needsAttention, reason)
            }
            return PersistedTask(
                operationID: item.id, key: item.key, body: item.body, status: status,
                attempts: item.attempts, createdAt: "\(item.createdAt)", diagnostic: diagnostic)
        }
    }
}
