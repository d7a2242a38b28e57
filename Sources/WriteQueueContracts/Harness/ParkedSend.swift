/// One request parked at the kit's transport, waiting for the timeline to answer it.
struct ParkedSend: Hashable, Sendable {
    /// The send's number in the run, from 1.
    let number: Int
    /// The trigger whose work sent it, or `nil` when it came from outside every trigger.
    let trigger: Int?
    /// What the queue sent.
    let request: WriteRequest
}
