/// A ``TicketOutbox`` that treats a 409 (same key, different body) like a 503 and keeps resending
/// the task after every backoff.
///
/// The bug: ``OutboxDefect/retriesConflictForever``; see the `// Mutant:` branch in `TicketOutbox.swift`.
public enum QueueThatRetries409Forever: OutboxAdapting {
    public static let defect: OutboxDefect? = .retriesConflictForever
}
