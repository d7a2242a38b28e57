import Foundation

/// One user operation waiting to reach the server, stored as `tasks/<id>.json`.
struct OutboxTask: Codable, Sendable, Identifiable {
    enum Status: String, Codable, Sendable {
        case pending
        case needsAttention
    }

    let id: UUID
    /// The caller's name for the operation (a draft ID; the kit's "op-1").
    let label: String
    /// Chosen once at submit and sent with every attempt.
    let idempotencyKey: String
    /// The request body as a JSON object, so the debug menu and schema migrations can read it.
    var payload: [String: JSONValue]
    let createdAt: Date
    var status: Status
    /// Requests answered so far.
    var attempts: Int
    /// Not sent again before this time (backoff after an unknown outcome).
    var retryAfter: Date?
    /// Why the task stopped, for the person who has to resolve it.
    var failureReason: String?
}
