/// A ``TicketOutbox`` that merges a pending update into the one already queued for the same entity
/// but keeps the older body, so the latest edit is never sent.
///
/// The bug: ``OutboxDefect/coalescesKeepingOlderBody``; see the `// Mutant:` branch in `TicketOutbox.swift`.
public enum CoalescingQueueThatSendsOlderBody: OutboxAdapting {
    public static let defect: OutboxDefect? = .coalescesKeepingOlderBody
}
