/// Errors the default implementations of ``PagerModelAdapter`` throw.
public enum PagerAdapterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A trigger the adapter did not implement was called. Declare it in
    /// ``PagerCapabilities/triggers`` only when you implement it.
    case unsupportedTrigger(String)

    public var description: String {
        switch self {
        case .unsupportedTrigger(let name):
            "the adapter does not implement \(name)(); declare it in capabilities only when it does"
        }
    }
}
