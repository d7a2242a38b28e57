import Foundation

/// One task as the queue stored it: what the adapter reads back from the storage.
public struct PersistedTask: Hashable, Sendable, CustomStringConvertible {
    /// The queue's operation ID.
    public var operationID: String
    /// The idempotency key, or `nil` when the queue has not stored one (a Q1 failure).
    public var key: String?
    /// The body as the queue stores it: the operation's JSON, or the whole request it stores
    /// (an envelope is read through ``QueueCapabilities/requestLayout``). The kit compares it
    /// with the submitted operation as a JSON value, so a stored dictionary re-encoded with
    /// other key order or whitespace matches.
    public var body: Data
    /// The task's state.
    public var status: QueueTaskStatus
    /// How many requests the queue has made for this task (shown in reports; no contract
    /// judges it).
    public var attempts: Int
    /// The creation time as the queue stored it (compared for equality only), or `nil`.
    public var createdAt: String?
    /// The diagnostic a stopped task carries, such as `409: key used with a different body`.
    /// Q4 requires a non-empty one on a task a 409 stopped (`needsAttention`): a person must
    /// resolve the conflict and needs to know why it stopped.
    public var diagnostic: String?

    /// Creates a task description.
    public init(
        operationID: String, key: String?, body: Data, status: QueueTaskStatus, attempts: Int,
        createdAt: String? = nil, diagnostic: String? = nil
    ) {
        self.operationID = operationID
        self.key = key
        self.body = body
        self.status = status
        self.attempts = attempts
        self.createdAt = createdAt
        self.diagnostic = diagnostic
    }

    /// The body as text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    public var description: String {
        "\(operationID) key=\(key ?? "none") \(status.rawValue) attempts \(attempts)"
            + (diagnostic.map { " diagnostic \"\($0)\"" } ?? "")
    }
}
