/// The one bug a mutant of ``TicketOutbox`` carries. The correct outbox has none; each branch
/// that reads a defect is marked `// Mutant:` in ``TicketOutbox``.
public enum OutboxDefect: String, Hashable, Sendable {
    /// A fresh key on every retry.
    case regeneratesKeyOnRetry
    /// The key lives in a dictionary in memory, made at the first send after each launch.
    case keepsKeyOnlyInMemory
    /// A 5xx is read as "the server refused it": the task is deleted.
    case deletesTaskOn5xx
    /// A 409 is retried like a 503, forever.
    case retriesConflictForever
    /// Any HTTP answer completes the task.
    case completesOnAnyResponse
    /// The key is a hash of the body.
    case derivesKeyFromBody
    /// No send lease: two passes send the same item at once.
    case sendsWithoutLease
    /// A new item is kept in memory and written to the store only after its first send.
    case persistsAfterFirstSend
    /// The backoff doubles without a cap.
    case backsOffWithoutCap
    /// Every 4xx but 409 is retried.
    case retriesEveryClientError
    /// The log line of a submit holds the whole body.
    case logsBodies
    /// The first submit after a launch saves the (not yet restored, empty) list over the store.
    case overwritesStoreOnFirstSubmit
    /// Merging a pending update keeps the older body.
    case coalescesKeepingOlderBody
}
