/// How the timeline answers one parked request.
enum SendAnswer: Hashable, Sendable {
    /// The request reaches the kit's server, which applies its semantics and `fault`.
    case server(ServerFault)
    /// The request never reaches the server: the connection drops, or it times out.
    case lost(TransportError)
    /// The request is cancelled on the phone before an answer arrives (the app cancels its
    /// data task as it goes to the background): the transport reports `URLError(.cancelled)`,
    /// as URLSession does. The outcome is unknown to the queue, and nothing reaches the server.
    case cancelled
    /// The server rejects the request with `status` and records nothing, in a JSON body whose
    /// message quotes the rejected values, as validation errors do:
    /// `{"error": "validation_failed", "message": "card \"4111…\" is not valid"}`.
    case rejected(status: Int, quoting: [String: String])

    /// Plain server semantics.
    static let serve = SendAnswer.server(.none)
}
