/// A ``TicketOutbox`` that takes no send lease, so two passes started together (foreground resume
/// and background sync) send the same task at once.
///
/// The bug: ``OutboxDefect/sendsWithoutLease``; see the `// Mutant:` branch in `TicketOutbox.swift`.
public enum QueueWithoutSendLease: OutboxAdapting {
    public static let defect: OutboxDefect? = .sendsWithoutLease
}
