/// A ``TicketOutbox`` that saves the list of operations submitted since launch over the store until
/// its first flush restores it, so the first submit after a relaunch wipes the tasks left by the
/// crash.
///
/// The bug: ``OutboxDefect/overwritesStoreOnFirstSubmit``; see the `// Mutant:` branch in `TicketOutbox.swift`.
public enum QueueThatOverwritesRestoredTasks: OutboxAdapting {
    public static let defect: OutboxDefect? = .overwritesStoreOnFirstSubmit
}
