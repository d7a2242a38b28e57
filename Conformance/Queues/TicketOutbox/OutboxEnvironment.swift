import Foundation

/// What the sample app injects into its outbox: how to post, what time it is, how to wait.
public struct OutboxEnvironment: Sendable {
    /// Posts a body with an `Idempotency-Key` header and returns the HTTP status.
    public var post: @Sendable (_ key: String, _ body: Data) async throws -> Int
    /// The time since the clock's origin.
    public var now: @Sendable () -> Duration
    /// Waits until the clock reaches a time.
    public var waitUntil: @Sendable (Duration) async throws -> Void

    /// Creates an environment.
    public init(
        post: @escaping @Sendable (String, Data) async throws -> Int,
        now: @escaping @Sendable () -> Duration,
        waitUntil: @escaping @Sendable (Duration) async throws -> Void
    ) {
        self.post = post
        self.now = now
        self.waitUntil = waitUntil
    }
}
