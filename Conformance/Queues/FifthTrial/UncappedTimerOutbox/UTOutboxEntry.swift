import Foundation

public struct UTOutboxEntry: Codable, Sendable, Equatable, Identifiable {
    public enum State: String, Codable, Sendable {
        case waiting
        case needsAttention
    }

    public let id: UUID
    public let operation: String
    public let payload: Data
    public let idempotencyKey: String
    public let createdAt: Date
    public var state: State
    public var attemptCount: Int
    public var retryAt: Date
    public var lastError: String?

    public init(
        id: UUID = UUID(),
        operation: String,
        payload: Data,
        idempotencyKey: String = UUID().uuidString,
        createdAt: Date,
        state: State = .waiting,
        attemptCount: Int = 0,
        retryAt: Date? = nil,
        lastError: String? = nil
    ) {
        self.id = id
        self.operation = operation
        self.payload = payload
        self.idempotencyKey = idempotencyKey
        self.createdAt = createdAt
        self.state = state
        self.attemptCount = attemptCount
        self.retryAt = retryAt ?? createdAt
        self.lastError = lastError
    }
}
