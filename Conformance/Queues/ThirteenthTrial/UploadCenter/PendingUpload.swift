import Foundation

/// One row of the "pending uploads" table.
public struct PendingUpload: Codable, Sendable, Equatable, Identifiable {
    public enum State: String, Codable, Sendable {
        /// Waiting to be sent (possibly not before `retryAfter`).
        case queued
        /// A request for it is out; the UI shows a spinner.
        case uploading
        /// The server rejected it for good; `failureReason` says why. Never retried automatically.
        case failed
    }

    public let id: UUID
    /// The caller's reference for the upload (a receipt ID, a draft ID).
    public let reference: String?
    public let endpoint: String
    /// The exact request body, fixed when the upload was created.
    public let payload: Data
    /// Idempotency token, fixed when the upload was created; sent in `X-Upload-Token`.
    public let uploadToken: String
    public let createdAt: Date
    public var state: State
    public var attempts: Int
    public var retryAfter: Date?
    public var lastError: String?
    public var failureReason: String?
}

/// The file format: `pending-uploads.json`.
struct PendingUploadsTable: Codable {
    var version: Int = 1
    var uploads: [PendingUpload] = []
}

/// Exponential backoff with a ceiling, in seconds.
public struct UploadBackoff: Sendable, Equatable {
    public var base: TimeInterval
    public var cap: TimeInterval

    public init(base: TimeInterval = 1, cap: TimeInterval = 64) {
        self.base = base
        self.cap = cap
    }

    public func delay(afterAttempt attempt: Int) -> TimeInterval {
        let exponent = Double(max(attempt - 1, 0))
        return min(cap, base * pow(2, min(exponent, 30)))
    }
}
