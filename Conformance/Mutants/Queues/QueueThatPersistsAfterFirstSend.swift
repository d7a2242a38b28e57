/// A ``TicketOutbox`` that keeps a new task in memory and writes it to the store only after its
/// first request returns, so a crash right after submit (or mid-send) loses it.
///
/// The bug: ``OutboxDefect/persistsAfterFirstSend``; see the `// Mutant:` branch in `TicketOutbox.swift`.
public enum QueueThatPersistsAfterFirstSend: OutboxAdapting {
    public static let defect: OutboxDefect? = .persistsAfterFirstSend
}
