/// What the fault server does with the first request for an idempotency key.
///
/// Every mode commits the record first; they differ in the answer the client gets, which is
/// the point of the simulator: a client must not confuse "the request failed" with "the write
/// failed".
public enum FaultMode: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Commit, then answer `503` (the seed script's behaviour, and the default).
    case commitThen503 = "commit-then-503"
    /// Commit, then close the connection without any response.
    case commitThenDrop = "commit-then-drop"
    /// Commit and answer `201` with the result (repeats answer `200`).
    case alwaysSucceed = "always-succeed"
    /// The IETF idempotency-key draft profile: commit, then answer `503` like the default,
    /// but a reused key with a different body gets `422`, and a key whose first request is
    /// still being processed gets `409`.
    case ietf = "ietf"

    /// The flag spelling, such as `commit-then-503`.
    public var description: String { rawValue }

    /// `true` when mismatched bodies get `422` and in-progress keys get `409`.
    public var isIETFProfile: Bool { self == .ietf }
}
