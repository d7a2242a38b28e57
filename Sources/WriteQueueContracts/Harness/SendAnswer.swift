/// How the timeline answers one parked request.
enum SendAnswer: Hashable, Sendable {
    /// The request reaches the kit's server, which applies its semantics and `fault`.
    case server(ServerFault)
    /// The request never reaches the server: the connection drops, or it times out.
    case lost(TransportError)

    /// Plain server semantics.
    static let serve = SendAnswer.server(.none)
}
