/// A ``TicketOutbox`` that doubles the retry delay without a cap, so after a few 503s the delay
/// exceeds the declared 16 s cap.
///
/// The bug: ``OutboxDefect/backsOffWithoutCap``; see the `// Mutant:` branch in `TicketOutbox.swift`.
public enum QueueWithUncappedBackoff: OutboxAdapting {
    public static let defect: OutboxDefect? = .backsOffWithoutCap
}
