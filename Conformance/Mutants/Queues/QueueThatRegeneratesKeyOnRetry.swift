/// A ``TicketOutbox`` that gives a task a fresh idempotency key every time it schedules a retry, so
/// the server cannot recognise the resend and a committed write is recorded twice.
///
/// The bug: ``OutboxDefect/regeneratesKeyOnRetry``; see the `// Mutant:` branch in `TicketOutbox.swift`.
public enum QueueThatRegeneratesKeyOnRetry: OutboxAdapting {
    public static let defect: OutboxDefect? = .regeneratesKeyOnRetry
}
