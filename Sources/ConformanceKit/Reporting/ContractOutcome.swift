/// The verdict of one contract against one implementation.
public enum ContractOutcome: Hashable, Sendable {
    /// Every check of the timeline held.
    case passed
    /// At least one check failed; the violations say which, in the order they were found.
    case failed([Violation])
    /// The contract needs something the adapter does not declare; never counted as passed.
    case notApplicable(reason: String)
    /// A setup step (reaching the state this contract's rule is about) failed because another
    /// rule, `by`, is broken: this contract was not judged. The violation is the setup step's
    /// failure, phrased under the blocking rule, with that rule's hint.
    case blocked(by: ContractID, Violation)

    /// The short word used in matrices and JSON: `passed`, `failed`, `warning` (every violation
    /// is of a recommended rule: a warning unless the run is strict), `skipped` or `blocked`.
    ///
    /// `skipped` is the word for ``notApplicable(reason:)`` (the matrix prints `n/a`, reports say
    /// "not applicable"): Swift Testing's word for a test that did not run, kept so that JSON
    /// read by a team's scripts keeps its meaning.
    public var word: String {
        switch self {
        case .passed: "passed"
        case .failed(let violations):
            violations.allSatisfy { $0.kind == .contract && $0.tier == .recommended }
                && !violations.isEmpty ? "warning" : "failed"
        case .notApplicable: "skipped"
        case .blocked: "blocked"
        }
    }

    /// The violations, empty unless the outcome is `failed`.
    public var violations: [Violation] {
        if case .failed(let violations) = self { return violations }
        return []
    }

    /// The rule whose breakage blocked this contract, or `nil` unless the outcome is `blocked`.
    public var blockedBy: ContractID? {
        if case .blocked(let blocker, _) = self { return blocker }
        return nil
    }

    /// The setup step's failure that blocked this contract, or `nil` unless `blocked`.
    public var blockingViolation: Violation? {
        if case .blocked(_, let violation) = self { return violation }
        return nil
    }
}
