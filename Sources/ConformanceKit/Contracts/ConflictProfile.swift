/// What the queue's server means by 409 and 422: the rule ``WriteQueueContract`` Q4 checks.
public enum ConflictProfile: String, Hashable, Sendable, CaseIterable {
    /// The source document's server contract (the default): 409 means "this key was used with a
    /// different body". The task stops, is kept with a diagnostic, and is never resent
    /// automatically.
    case sourceDocument
    /// The IETF idempotency-key draft: 409 means "a request with this key is still being
    /// processed" (keep the task, retry later with the same key) and 422 means "this key was
    /// used with a different body" (stop, as above).
    case ietfDraft

    /// The status the server answers when a key arrives with a different body.
    public var mismatchStatus: Int {
        switch self {
        case .sourceDocument: 409
        case .ietfDraft: 422
        }
    }
}
