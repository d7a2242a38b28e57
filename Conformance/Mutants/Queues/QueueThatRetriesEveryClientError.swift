/// A ``TicketOutbox`` that retries every 4xx except 409 (400, 404, 418, 422 …) as if it were
/// temporary, resending bytes the server already rejected.
///
/// The bug: ``OutboxDefect/retriesEveryClientError``; see the `// Mutant:` branch in `TicketOutbox.swift`.
public enum QueueThatRetriesEveryClientError: OutboxAdapting {
    public static let defect: OutboxDefect? = .retriesEveryClientError
}
