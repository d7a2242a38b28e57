/// Whether a contract can be checked against an adapter, decided from the adapter's declared
/// capabilities before anything runs.
public enum Applicability: Hashable, Sendable {
    /// The adapter can express every step of the contract.
    case applicable
    /// The adapter lacks something the contract needs; the reason names it.
    case notApplicable(reason: String)

    /// `true` when the contract can run.
    public var isApplicable: Bool {
        if case .applicable = self { return true }
        return false
    }

    /// The reason the contract cannot run, or `nil` when it can.
    public var reason: String? {
        if case .notApplicable(let reason) = self { return reason }
        return nil
    }
}
