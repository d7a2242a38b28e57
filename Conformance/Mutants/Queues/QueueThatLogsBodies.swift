/// A ``TicketOutbox`` that writes the whole request body, sensitive fields included, into its log
/// line at submit.
///
/// The bug: ``OutboxDefect/logsBodies``; see the `// Mutant:` branch in `TicketOutbox.swift`.
public enum QueueThatLogsBodies: OutboxAdapting {
    public static let defect: OutboxDefect? = .logsBodies
}
