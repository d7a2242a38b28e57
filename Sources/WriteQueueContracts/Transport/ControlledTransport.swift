/// The transport the kit hands a queue: every request parks here until the contract's timeline
/// answers it, so the order of answers comes from the timeline, never from the network.
///
/// Answers come from the kit's ``IdempotencyLedger`` (with a fault the timeline chooses), or are
/// transport errors. Two requests in flight at once are two parked requests: that is how Q7
/// sees two senders. There is no real network.
///
/// Async code calls ``send(_:)``. Completion-handler code (a `URLSession` data task wrapped by
/// the app's own client) calls ``send(_:completion:)`` from any thread or `DispatchQueue`: each
/// launch has its own transport, so the kit knows which process sent a request even where the
/// kit's task-local tags do not travel.
public final class ControlledTransport: Sendable {
    private let stage: QueueStage
    private let instance: Int
    private let layout: RequestLayout

    init(stage: QueueStage, instance: Int, layout: RequestLayout) {
        self.stage = stage
        self.instance = instance
        self.layout = layout
    }

    /// Sends `request` and suspends until the timeline answers it.
    /// - Parameter request: The key and body.
    /// - Returns: The server's response (any status, success or not).
    /// - Throws: ``TransportError`` when no answer arrives (the outcome is unknown), or
    ///   `CancellationError` when the timeline ends while the request is parked.
    public func send(_ request: WriteRequest) async throws -> WriteResponse {
        try await stage.park(request, instance: instance, layout: layout)
    }

    /// Sends `request` and calls `completion` once, when the timeline answers it, on the thread
    /// that answers (as `URLSession` calls back on its delegate queue, never inside this call).
    /// - Parameters:
    ///   - request: The key and body.
    ///   - completion: Receives the response, a ``TransportError``, or `CancellationError` when
    ///     the timeline ends first.
    public func send(
        _ request: WriteRequest,
        completion: @escaping @Sendable (Result<WriteResponse, any Error>) -> Void
    ) {
        stage.parkCallback(request, instance: instance, layout: layout, completion: completion)
    }
}
