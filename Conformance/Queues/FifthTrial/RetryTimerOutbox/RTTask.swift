import Foundation

public enum RTTaskStatus: String, Codable, Sendable {
    case pending
    case needsAttention
}

public struct RTTask: Codable, Sendable, Equatable, Identifiable {
    public let id: UUID
    public let operation: String
    public let body: Data
    public let idempotencyKey: String
    public let createdAt: Date
    public var status: RTTaskStatus
    public var attempts: Int
    public var nextAttemptAt: Date
    public var diagnostic: String?

    public init(
        id: UUID,
        operation: String,
        body: Data,
        idempotencyKey: String,
        createdAt: Date,
        status: RTTaskStatus = .pending,
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
