/// Where a persisted task stands, in the kit's words; the adapter maps its queue's states onto it.
public enum QueueTaskStatus: String, Hashable, Sendable, CaseIterable {
    /// Waiting to be sent, or waiting for a retry after an unknown outcome.
    case pending
    /// A request for the task is in flight right now.
    case inFlight
    /// An explicit success completed the task (a queue may also remove the task instead).
    case completed
    /// Automatic sending stopped (a conflict, a terminal client error); a person must look.
    case needsAttention
}
