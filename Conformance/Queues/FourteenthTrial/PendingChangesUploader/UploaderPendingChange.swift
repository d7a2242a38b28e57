import Foundation

/// One local change waiting to be uploaded, as stored in `pending-changes.json`.
struct UploaderPendingChange: Codable, Sendable, Equatable {
    enum Status: String, Codable, Sendable {
        case pending
        case needsAttention
    }

    let id: UUID
    /// The caller's name for the change (the kit's "op-1").
    let label: String
    let idempotencyKey: String
    /// The exact bytes of every attempt.
    let body: Data
    let createdAt: Date
    var status: Status
    /// Requests sent so far.
    var attempts: Int
    /// Not sent again before this time (backoff).
    var notBefore: Date?
    /// The sending pass that owns the change, and until when. Kept in the file so a pass that
    /// died with its process gives the change up once the lease runs out.
    var leaseOwner: UUID?
    var leaseExpiresAt: Date?
    /// Why the change stopped, for the person who has to resolve it.
    var diagnostic: String?
}
