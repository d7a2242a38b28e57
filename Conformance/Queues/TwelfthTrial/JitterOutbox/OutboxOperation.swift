import Foundation

/// One queued write. Stored as `<id>.json` in the outbox directory.
struct OutboxOperation: Codable, Sendable, Identifiable {
    enum Status: String, Codable, Sendable {
        case pending
        case inFlight
    }

    let id: UUID
    /// Caller-supplied label (a draft ID, a screen name): shown in logs and in the failed list.
    let label: String
    let endpoint: String
    let body: Data
    /// Generated once at enqueue and never changed, so every retry is the same request.
    let idempotencyKey: String
    let createdAt: Date
    var status: Status
    /// Requests sent so far.
    var attempts: Int
    /// Earliest time the next attempt may start; `nil` means "as soon as possible".
    var nextAttemptAt: Date?

    /// A short name for log lines. Never includes the body.
    var logName: String { "\(label) [\(id.uuidString.prefix(8))]" }
}

/// An operation the server refused for good. Kept under `failed/` so the UI can show it.
struct FailedOperation: Codable, Sendable {
    let operation: OutboxOperation
    let statusCode: Int
    let failedAt: Date
}

/// What the outbox hands to the network layer.
struct OutboxRequest: Sendable {
    let endpoint: String
    let idempotencyKey: String
    let body: Data
}

/// How a response (or a thrown error) is handled.
enum DeliveryOutcome: Equatable, Sendable {
    /// The server has the write: remove it.
    case delivered
    /// The outcome is unknown or the server asked us to come back later.
    case retry(reason: String)
    /// The server will never accept these bytes: stop and keep the record.
    case rejected(statusCode: Int)

    init(statusCode: Int) {
        switch statusCode {
        case 200..<300:
            self = .delivered
        case 409:
            // Our API answers 409 when this idempotency key was already applied.
            self = .delivered
        case 408, 429, 500..<600:
            self = .retry(reason: "HTTP \(statusCode)")
        case 400..<500:
            self = .rejected(statusCode: statusCode)
        default:
            // 1xx/3xx from the API means something between us and it is misbehaving.
            self = .retry(reason: "unexpected HTTP \(statusCode)")
        }
    }
}

/// Exponential backoff with full jitter: a random delay in `0...min(cap, base * 2^n)`,
/// never shorter than `minimum`.
struct FullJitterBackoff: Sendable {
    var base: Double = 1
    var cap: Double = 60
    var minimum: Double = 0.5

    /// The delay before the next attempt, given how many requests were already sent.
    func delay(afterAttempts attempts: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        let exponent = min(max(attempts - 1, 0), 30)
        let ceiling = max(min(cap, base * Double(1 << exponent)), minimum)
        let seconds = max(minimum, Double.random(in: 0...ceiling, using: &generator))
        return .milliseconds(Int((seconds * 1_000).rounded()))
    }
}
