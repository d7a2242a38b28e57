import Foundation

/// What a mutation does to its entity on the server.
public enum MutationKind: String, Codable, Sendable {
    /// `POST /expense-reports` (the entity ID is the client-generated ID of the new report).
    case create
    /// `PUT /expense-reports/{entityID}` with the full new state of the report.
    case update
}

/// One user operation waiting to reach the server. One JSON file per mutation on disk.
public struct PendingMutation: Codable, Sendable, Identifiable, Equatable {
    /// Local identity of the mutation (file name).
    public let id: UUID
    /// The entity this mutation belongs to: mutations of one entity are sent one after another,
    /// in `sequence` order.
    public let entityID: String
    public let kind: MutationKind
    /// The exact request body, fixed at enqueue time. Every attempt sends these bytes.
    public let payload: Data
    /// Idempotency key, chosen once at enqueue time and stored before the first attempt.
    public let idempotencyKey: UUID
    public let createdAt: Date
    /// Position in the per-entity order (monotonic over the store's current contents).
    public let sequence: Int
    /// Optional caller-supplied label (e.g. the screen's draft ID), kept for diagnostics.
    public var clientTag: String?

    /// Requests sent for this mutation so far (across launches).
    public var attemptCount: Int
    public var lastAttemptAt: Date?
    /// Earliest time of the next attempt after an unknown outcome (backoff), if any.
    public var nextAttemptAt: Date?
    /// Why the last attempt did not succeed (status code or transport error), for display.
    public var lastError: String?
    /// Non-nil when the server rejected the mutation for good: it is kept for the user to resolve,
    /// and never sent automatically again.
    public var blockedReason: String?

    public var needsAttention: Bool { blockedReason != nil }
}

/// Exponential backoff with a ceiling: base, 2×base, 4×base, … capped at `cap`.
public struct LaneRetryPolicy: Sendable, Equatable {
    public var base: Duration
    public var cap: Duration

    public init(base: Duration = .seconds(1), cap: Duration = .seconds(60)) {
        precondition(base > .zero && cap >= base)
        self.base = base
        self.cap = cap
    }

    /// Delay after the `attempt`-th request (1-based) met an unknown outcome.
    public func delay(afterAttempt attempt: Int) -> Duration {
        var delay = base
        var step = 1
        while step < attempt {
            delay = delay * 2
            if delay >= cap { return cap }
            step += 1
        }
        return min(delay, cap)
    }
}

extension Duration {
    var laneTimeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
