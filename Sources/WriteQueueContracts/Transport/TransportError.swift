/// A request that got no answer: the outcome is unknown (the write may or may not have happened).
public enum TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The connection dropped before an answer arrived.
    case connectionLost
    /// No answer arrived in time.
    case timedOut

    public var description: String {
        switch self {
        case .connectionLost: "connection lost"
        case .timedOut: "timed out"
        }
    }
}
