/// What the kit hands a queue when it launches one: the transport to send through and the clock
/// to wait on.
public struct QueueEnvironment: Sendable {
    /// The kit's transport: every request parks there until the timeline answers it.
    public let transport: ControlledTransport
    /// The kit's clock: backoff waits on it, and only the timeline moves it.
    public let clock: ManualClock

    /// Creates an environment.
    public init(transport: ControlledTransport, clock: ManualClock) {
        self.transport = transport
        self.clock = clock
    }
}
