import Foundation

/// One user operation as ``FileWriteQueue`` stores it: everything needed to resend it after a
/// crash, byte for byte.
package struct StoredTask: Codable, Hashable, Sendable {
    /// Whether the queue still sends the task.
    package enum Status: String, Codable, Hashable, Sendable {
        /// Waiting for its first request or for a retry.
        case pending
        /// Stopped: a conflict or a terminal client error. A person must look.
        case needsAttention
    }

    /// The app's ID for the operation.
    package let operationID: String
    /// The idempotency key, chosen once at submit.
    package let key: String
    /// The request body, fixed at submit.
    package let body: Data
    /// When the task was submitted, on the queue's clock.
    package let createdAt: Duration
    /// The order of submission (ties on `createdAt` keep submit order).
    package let sequence: Int
    /// Pending or stopped.
    package var status: Status
    /// How many requests have been made.
    package var attempts: Int
    /// The earliest time of the next request.
    package var nextAttemptAt: Duration
    /// Why the task stopped, without any body content.
    package var diagnostic: String?
}
