/// A ``TicketOutbox`` that marks a task done on any HTTP answer (503, 409, 429 included), not only
/// on a 2xx.
///
/// The bug: ``OutboxDefect/completesOnAnyResponse``; see the `// Mutant:` branch in `TicketOutbox.swift`.
public enum QueueThatCompletesOnAnyResponse: OutboxAdapting {
    public static let defect: OutboxDefect? = .completesOnAnyResponse
}
