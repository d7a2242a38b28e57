/// A ``TicketOutbox`` that stores tasks without their key and makes the key in memory at the first
/// send after each launch, so a relaunch resends under a new key.
///
/// The bug: ``OutboxDefect/keepsKeyOnlyInMemory``; see the `// Mutant:` branch in `TicketOutbox.swift`.
public enum QueueThatKeepsKeyOnlyInMemory: OutboxAdapting {
    public static let defect: OutboxDefect? = .keepsKeyOnlyInMemory
}
