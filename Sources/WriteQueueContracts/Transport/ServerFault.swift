/// What the kit's server does with one request, beyond its idempotency semantics.
public enum ServerFault: Hashable, Sendable, CustomStringConvertible {
    /// Plain semantics: a new key commits a record and answers 201; the same key with the same
    /// body answers the original result (200); a different body answers 409 (422 in the IETF
    /// profile); a missing key or a body that is not JSON answers 400.
    case none
    /// The seed's fault: a new key commits its record, then answers 503 (the response is lost).
    case commitThen503
    /// A new key commits its record, then the connection drops before the answer.
    case commitThenDrop
    /// Answers `status` without recording anything (a 5xx before the write, a 4xx).
    case answer(status: Int)
    /// Another body is already stored under the key (another client, or a changed body):
    /// the request meets the mismatch status of the profile.
    case conflictingRecord
    /// A request with this key is still being processed (the IETF profile's 409).
    case stillInFlight

    public var description: String {
        switch self {
        case .none: "serve"
        case .commitThen503: "commit then answer 503"
        case .commitThenDrop: "commit then drop the connection"
        case .answer(let status): "answer \(status)"
        case .conflictingRecord: "hold a different body under the key"
        case .stillInFlight: "report the key still in flight"
        }
    }
}
