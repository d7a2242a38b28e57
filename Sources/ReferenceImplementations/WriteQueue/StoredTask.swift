import Foundation

/// One user operation as ``FileWriteQueue`` stores it: everything needed to resend it after a
/// crash, byte for byte.
public struct StoredTask: Codable, Hashable, Sendable {
    /// Whether the queue still sends the task.
    public enum Status: String, Codable, Hashable, Sendable {
        /// Waiting for its first request or for a retry.
        case pending
        /// Stopped: a conflict or a terminal client error. A person must look.
        case needsAttention
    }

    /// The app's ID for the operation.
    public let operationID: String
    /// The idempotency key, chosen once at submit.
    public let key: String
    /// The request body, fixed at submit.
    public let body: Data
    /// When the task was submitted, on the queue's clock.
    public let createdAt: Duration
    /// The order of submission (ties on `createdAt` keep submit order).
    public let sequence: Int
    /// Pending or stopped.
    public var status: Status
    /// How many requests have been made.
    public var attempts: Int
    /// The earliest time of the next request.
    public var nextAttemptAt: Duration
    /// Why the task stopped, without any body content.
    public var diagnostic: String?
}
