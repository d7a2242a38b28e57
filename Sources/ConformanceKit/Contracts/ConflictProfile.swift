/// What an idempotency server's conflict answers mean: the one spelling of the profile, for a
/// queue (``QueueCapabilities``), a server check (`ServerContract.run(against:profile:…)`) and
/// the fault server (`ServerConfiguration.profile`, `--profile ietf-draft`).
public enum ConflictProfile: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The source document's server contract (the default): 409 means "this key was used with a
    /// different body". The task stops, is kept with a diagnostic, and is never resent
    /// automatically.
    case sourceDocument = "source-document"
    /// The IETF idempotency-key draft: 409 means "a request with this key is still being
    /// processed" (keep the task, retry later with the same key) and 422 means "this key was
    /// used with a different body" (stop, as above).
    case ietfDraft = "ietf-draft"

    /// The status the server answers when a key arrives with a different body.
    public var mismatchStatus: Int {
        switch self {
        case .sourceDocument: 409
        case .ietfDraft: 422
        }
    }

    /// The flag spelling, such as `ietf-draft`.
    public var description: String { rawValue }
}
