/// The verdict of one contract against one implementation.
public enum ContractOutcome: Hashable, Sendable {
    /// Every check of the timeline held.
    case passed
    /// At least one check failed; the violations say which, in the order they were found.
    case failed([Violation])
    /// The contract needs something the adapter does not declare; never counted as passed.
    case notApplicable(reason: String)

    /// The short word used in matrices and JSON: `passed`, `failed` or `skipped`.
    public var word: String {
        switch self {
        case .passed: "passed"
        case .failed: "failed"
        case .notApplicable: "skipped"
        }
    }

    /// The violations, empty unless the outcome is `failed`.
    public var violations: [Violation] {
        if case .failed(let violations) = self { return violations }
        return []
    }
}
