import Foundation
import WriteQueueContracts

/// The adapter of ``TicketOutbox`` and of every mutant made from it: the same ~30 lines, with
/// the defect (none for the adopter) as the only difference.
public protocol OutboxAdapting: WriteQueueAdapter where Storage == OutboxStore, Queue == TicketOutbox {
    /// The bug, or `nil` for the correct outbox.
    static var defect: OutboxDefect? { get }
}

extension OutboxAdapting {
    public static var capabilities: QueueCapabilities {
        QueueCapabilities(
            exposesDiagnostics: true, sharesStorageBetweenInstances: true, coalescesUpdates: true,
            backoff: .capped(at: TicketOutbox.maximumDelay))
    }

    public static func makeStorage() throws -> OutboxStore { OutboxStore() }

    public static func launch(from store: OutboxStore, environment: QueueEnvironment) async throws -> TicketOutbox {
        let transport = environment.transport
        let clock = environment.clock
        return TicketOutbox(
            store: store,
            environment: OutboxEnvironment(
                post: { key, body in
                    try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
                },
                now: { clock.now.offset },
                waitUntil: { deadline in try await clock.wait(until: ManualClock.Instant(offset: deadline)) }),
            defect: defect)
    }

    public static func submit(_ operation: QueueOperation, to outbox: TicketOutbox) async throws {
        await outbox.enqueue(id: operation.id, entity: operation.entity, body: operation.body)
    }

    public static func runSendingPass(_ outbox: TicketOutbox) async throws {
        await outbox.flush()
    }

    public static func persistedTasks(in store: OutboxStore) async throws -> [PersistedTask] {
        store.all.map { item in
            let status: QueueTaskStatus
            var diagnostic: String?
            switch item.state {
            case .waiting: status = .pending
            case .done: status = .completed
            case .stuck(let reason): (status, diagnostic) = (.needsAttention, reason)
            }
            return PersistedTask(
                operationID: item.id, key: item.key, body: item.body, status: status,
                attempts: item.attempts, createdAt: "\(item.createdAt)", diagnostic: diagnostic)
        }
    }

    public static func diagnostics(of outbox: TicketOutbox, storage: OutboxStore) async -> [String] {
        await outbox.logLines()
    }
}
