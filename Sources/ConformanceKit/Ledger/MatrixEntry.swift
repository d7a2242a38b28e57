/// One cell of the conformance matrix: an implementation, a contract, what happened and what
/// its ledger expected.
package struct MatrixEntry: Hashable, Sendable {
    /// The implementation's name.
    package let implementation: String
    /// Reference, adopter or mutant.
    package let kind: ImplementationKind
    /// How the implementation is driven.
    package let level: IntegrationLevel
    /// The full report of the run.
    package let report: ContractReport
    /// What the ledger expected.
    package let expected: ExpectedOutcome
    /// When the ledger expects the cell blocked: the rule it names as the blocker.
    package let expectedBlocker: ContractID?

    /// Creates an entry.
    package init(
        implementation: String, kind: ImplementationKind, level: IntegrationLevel,
        report: ContractReport, expected: ExpectedOutcome, expectedBlocker: ContractID? = nil
    ) {
        self.implementation = implementation
        self.kind = kind
        self.level = level
        self.report = report
        self.expected = expected
        self.expectedBlocker = expectedBlocker
    }

    /// Whether the outcome is what the ledger expected (a blocked cell, by the rule it names).
    package var matchesLedger: Bool {
        guard expected.isMet(by: report.outcome) else { return false }
        guard expected == .blocked, let expectedBlocker else { return true }
        return report.outcome.blockedBy == expectedBlocker
    }

    /// Why the outcome does not match the ledger, or `nil` when it does.
    package var mismatch: String? {
        guard !matchesLedger else { return nil }
        let title = report.contract.title
        switch (expected, report.outcome) {
        case (.fail, .passed):
            return "\(implementation): \(title) passed, but the ledger expects it to fail: "
                + "the contract lost its teeth, or the ledger is stale."
        case (.pass, .failed):
            return "\(implementation): \(title) failed, but the ledger expects it to pass."
        case (.fail, .failed):
            return "\(implementation): \(title) ended in an adapter error, but the ledger expects the "
                + "implementation to fail it: the kit could not judge the rule, so the listed bug was not seen."
        case (.blocked, .blocked(let blocker, _)):
            return "\(implementation): \(title) was blocked by \(blocker), but the ledger expects "
                + "it blocked by \(expectedBlocker?.rawValue ?? "another rule")."
        case (.blocked, _):
            return "\(implementation): \(title) \(report.outcome.word), but the ledger expects it "
                + "blocked by \(expectedBlocker?.rawValue ?? "another rule")."
        case (_, .blocked(let blocker, let violation)):
            return "\(implementation): \(title) was blocked by \(blocker) (\(violation.summary)), "
                + "but the ledger expects \(expected.rawValue)."
        case (_, .notApplicable(let reason)):
            return "\(implementation): \(title) was skipped (\(reason)), but the ledger expects "
                + expected.rawValue + "."
        default:
            return "\(implementation): \(title) \(report.outcome.word), expected \(expected.rawValue)."
        }
    }

    /// The one-line message for JSON and the matrix legend.
    package var message: String {
        switch report.outcome {
        case .passed: ""
        case .notApplicable(let reason): reason
        case .failed(let violations): violations.first.map { "\(report.contract.id): \($0.summary)" } ?? ""
        case .blocked(let blocker, let violation): "blocked by \(blocker): \(violation.summary)"
        }
    }
}
