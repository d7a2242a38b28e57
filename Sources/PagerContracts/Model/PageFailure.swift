/// A failed answer to a page request.
///
/// Map it to the error your loader would see: a timeout to `URLError(.timedOut)`, a
/// cancellation to `CancellationError()`, and so on.
public enum PageFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request timed out.
    case timeout
    /// The server answered with an error status.
    case serverError(status: Int)
    /// The request was cancelled (a cancellation error, which P8 says proves nothing).
    case cancelled

    /// `true` for ``cancelled``.
    public var isCancellation: Bool { self == .cancelled }

    public var description: String {
        switch self {
        case .timeout: "timeout"
        case .serverError(let status): "server error \(status)"
        case .cancelled: "cancellation error"
        }
    }
}
