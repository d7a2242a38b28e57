import Foundation

/// One queued write, as kept in memory and in `outbox.json`.
struct SyncOutboxEntry: Codable, Sendable, Equatable {
    enum State: String, Codable, Sendable {
        case pending
        case needsAttention
    }

    let id: UUID
    /// The caller's name for the operation (the kit's "op-1").
    let label: String
    let idempotencyKey: String
    /// The exact bytes of every attempt.
    let body: Data
    let createdAt: Date
    var state: State
    /// Requests answered so far without success.
    var attempts: Int
    /// Not sent again before this time.
    var nextAttemptAt: Date?
    /// The last failure; for a stopped entry, why it stopped.
    var lastError: String?
}
