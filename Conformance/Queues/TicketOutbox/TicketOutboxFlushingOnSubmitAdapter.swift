import WriteQueueContracts

/// The sample adopter wired the way many apps call it: every submit flushes the outbox at once,
/// so requests start inside `submit` as well as in sending passes. A conforming variation the
/// kit must accept (submit is a trigger like a pass).
public enum TicketOutboxFlushingOnSubmitAdapter: OutboxAdapting {
    public static let defect: OutboxDefect? = nil

    public static func submit(_ operation: QueueOperation, to outbox: TicketOutbox) async throws {
        await outbox.enqueue(id: operation.id, entity: operation.entity, body: operation.body)
        await outbox.flush()
    }
}
