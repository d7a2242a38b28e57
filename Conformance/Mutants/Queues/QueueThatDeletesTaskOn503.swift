/// A ``TicketOutbox`` that reads a 503 (any 5xx) as "the server refused it" and deletes the task,
/// although the write may have been committed and the answer lost.
///
/// The bug: ``OutboxDefect/deletesTaskOn5xx``; see the `// Mutant:` branch in `TicketOutbox.swift`.
public enum QueueThatDeletesTaskOn503: OutboxAdapting {
    public static let defect: OutboxDefect? = .deletesTaskOn5xx
}
