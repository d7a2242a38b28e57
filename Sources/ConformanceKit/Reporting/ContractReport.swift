/// The structured result of running one contract against one implementation.
///
/// The engine returns reports and knows nothing of any test framework: the Swift Testing
/// bridge, the `conformance` command and an XCTest user all read the same value.
public struct ContractReport: Hashable, Sendable {
    /// The contract that ran.
    public let contract: ContractDescriptor
    /// The name of the implementation under check (usually its adapter's type name).
    public let subject: String
    /// The verdict.
    public let outcome: ContractOutcome
    /// Every step the kit took, in order.
    public let transcript: Transcript
    /// Things the kit could not check and said so, such as state the adapter does not report.
    public let notes: [String]

    /// Creates a report.
    package init(
        contract: ContractDescriptor,
        subject: String,
        outcome: ContractOutcome,
        transcript: Transcript = Transcript(),
        notes: [String] = []
    ) {
        self.contract = contract
        self.subject = subject
        self.outcome = outcome
        self.transcript = transcript
        self.notes = notes
    }

    /// This report under `descriptor`: a schedule's report, first run under the explorer's
    /// invariants, is named by the contract whose rule its violation broke, so its title and
    /// `Rule:` line are that contract's.
    package func named(_ descriptor: ContractDescriptor) -> ContractReport {
        ContractReport(contract: descriptor, subject: subject, outcome: outcome, transcript: transcript, notes: notes)
    }

    /// `true` when the outcome is a failure that counts as an error: any required-tier
    /// violation, any adapter error or watchdog, or, when `strict`, a recommended-tier one. A
    /// cell blocked by a required rule counts as an error too (the blocking rule is broken).
    public func hasErrors(strict: Bool) -> Bool {
        if let blocking = outcome.blockingViolation {
            return strict || blocking.tier == .required || blocking.kind != .contract
        }
        return outcome.violations.contains { violation in
            strict || violation.tier == .required || violation.kind != .contract
        }
    }

    /// The catalogue entry of the rule that blocked this contract, or `nil` unless the outcome
    /// is `blocked` (or the blocker is not in the catalogue).
    public var blockingContract: ContractDescriptor? {
        outcome.blockedBy.flatMap(ContractCatalog.descriptor)
    }
}
