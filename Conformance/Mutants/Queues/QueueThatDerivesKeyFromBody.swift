/// A ``TicketOutbox`` that derives the idempotency key from a hash of the body, so two genuine
/// creates with identical bodies share one key and the second is swallowed.
///
/// The bug: ``OutboxDefect/derivesKeyFromBody``; see the `// Mutant:` branch in `TicketOutbox.swift`.
public enum QueueThatDerivesKeyFromBody: OutboxAdapting {
    public static let defect: OutboxDefect? = .derivesKeyFromBody
}
