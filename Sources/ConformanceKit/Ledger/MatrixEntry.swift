/// One cell of the conformance matrix: an implementation, a contract, what happened and what
/// its ledger expected.
public struct MatrixEntry: Hashable, Sendable {
    /// The implementation's name.
    public let implementation: String
    /// Reference, adopter or mutant.
    public let kind: ImplementationKind
    /// How the implementation is driven.
    public let level: IntegrationLevel
    /// The full report of the run.
    public let report: ContractReport
    /// What the ledger expected.
    public let expected: ExpectedOutcome

    /// Creates an entry.
    public init(
        implementation: String, kind: ImplementationKind, level: IntegrationLevel,
        report: ContractReport, expected: ExpectedOutcome
    ) {
        self.implementation = implementation
        self.kind = kind
        self.level = level
        self.report = report
        self.expected = expected
    }

    /// Whether the outcome is what the ledger expected.
    public var matchesLedger: Bool { expected.isMet(by: report.outcome) }

    /// Why the outcome does not match the ledger, or `nil` when it does.
    public var mismatch: String? {
        guard !matchesLedger else { return nil }
        let title = report.contract.title
        switch (expected, report.outcome) {
        case (.fail, .passed):
            return "\(implementation): \(title) passed, but the ledger expects it to fail: "
                + "the contract lost its teeth, or the ledger is stale."
        case (.pass, .failed):
            return "\(implementation): \(title) failed, but the ledger expects it to pass."
        case (_, .notApplicable(let reason)):
            return "\(implementation): \(title) was skipped (\(reason)), but the ledger expects "
                + expected.rawValue + "."
        default:
            return "\(implementation): \(title) \(report.outcome.word), expected \(expected.rawValue)."
        }
    }

    /// The one-line message for JSON and the matrix legend.
    public var message: String {
        switch report.outcome {
        case .passed: ""
        case .notApplicable(let reason): reason
        case .failed(let violations): violations.first.map { "\(report.contract.id): \($0.summary)" } ?? ""
        }
    }
}
