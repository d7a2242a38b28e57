/// What the fault server does with the first request for an idempotency key.
///
/// Every mode commits the record first; they differ in the answer the client gets, which is
/// the point of the simulator: a client must not confuse "the request failed" with "the write
/// failed". The conflict answers are the server's ``ConflictProfile``, set apart
/// (``ServerConfiguration/profile``), so every mode runs under either profile.
public enum FaultMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Commit, then answer `503` (the seed script's behaviour, and the default).
    case commitThen503 = "commit-then-503"
    /// Commit, then close the connection without any response.
    case commitThenDrop = "commit-then-drop"
    /// Commit and answer `201` with the result (repeats answer `200`).
    case alwaysSucceed = "always-succeed"

    /// The flag spelling, such as `commit-then-503`.
    public var description: String { rawValue }
}
