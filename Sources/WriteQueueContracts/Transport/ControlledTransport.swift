/// The transport the kit hands a queue: every request parks here until the contract's timeline
/// answers it, so the order of answers comes from the timeline, never from the network.
///
/// Answers come from the kit's ``IdempotencyLedger`` (with a fault the timeline chooses), or are
/// transport errors. Two requests in flight at once are two parked requests: that is how Q7
/// sees two senders. There is no real network.
public final class ControlledTransport: Sendable {
    private let stage: QueueStage

    init(stage: QueueStage) {
        self.stage = stage
    }

    /// Sends `request` and suspends until the timeline answers it.
    /// - Parameter request: The key and body.
    /// - Returns: The server's response (any status, success or not).
    /// - Throws: ``TransportError`` when no answer arrives (the outcome is unknown), or
    ///   `CancellationError` when the timeline ends while the request is parked.
    public func send(_ request: WriteRequest) async throws -> WriteResponse {
        try await stage.park(request)
    }
}
