import Foundation

public enum TOTaskStatus: String, Codable, Sendable {
    /// Waiting to be sent, or sent with an unknown outcome and waiting for its next attempt.
    case pending
    /// Rejected by the server; kept for the user to look at, never sent again automatically.
    case needsAttention
}

/// One user operation waiting in the outbox. Persisted before anything is sent.
public struct TOTaskRow: Codable, Sendable, Equatable, Identifiable {
    public let id: UUID
    public let operation: String
    public let body: Data
    /// Chosen once at submit and reused for every attempt.
    public let idempotencyKey: String
    public let createdAt: Date
    public var status: TOTaskStatus
    public var attempts: Int
    /// Earliest time the next attempt may be made.
    public var nextAttemptAt: Date
    public var diagnostic: String?

    public init(
        id: UUID,
        operation: String,
        body: Data,
        idempotencyKey: String,
        createdAt: Date,
        status: TOTaskStatus = .pending,
        attempts: Int = 0,
        nextAttemptAt: Date,
        diagnostic: String? = nil
    ) {
        self.id = id
        self.operation = operation
        self.body = body
        self.idempotencyKey = idempotencyKey
        self.createdAt = createdAt
        self.status = status
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.diagnostic = diagnostic
    }
}
