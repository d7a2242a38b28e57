/// A failure the explorer found: the invariant, the shrunk schedule's report and the
/// regression test to paste.
public struct ExplorationFinding: Hashable, Sendable {
    /// What failed: a contract's rule, the adapter, or a step that never settled.
    public enum Kind: Hashable, Sendable {
        /// The implementation broke this contract's rule (the finding is named by it, with
        /// the contract's tier).
        case rule(ContractID)
        /// The adapter threw or did something the kit cannot interpret: not a verdict on any
        /// rule; fix the adapter first.
        case adapterError
        /// A step never settled: the watchdog gave up waiting (its message says on what).
        case hang

        /// The contract, for a broken rule.
        public var contract: ContractID? {
            if case .rule(let id) = self { id } else { nil }
        }

        /// `rule`, `adapterError` or `hang`: the kind's name in JSON output.
        public var name: String {
            switch self {
            case .rule: "rule"
            case .adapterError: "adapterError"
            case .hang: "hang"
            }
        }
    }

    /// What failed. A broken rule names its contract; an adapter error or a hang is no rule's
    /// verdict, and an `expecting:` list never covers it.
    public let kind: Kind
    /// The descriptor the finding is shown under: the contract's for a broken rule, such as
    /// `P4 stale responses are discarded`; for an adapter error or a hang, a descriptor of
    /// that failure.
    public let invariant: ContractDescriptor
    /// The tier of the failed check (the end-of-list stops for no progress and cursor cycles
    /// are recommended; everything else is required).
    public let tier: ContractTier
    /// The report of replaying the shrunk schedule: the violation and its transcript.
    public let report: ContractReport
    /// Steps in the schedule as first found (up to and including the failing step).
    public let originalSteps: Int
    /// Steps in the shrunk schedule.
    public let shrunkSteps: Int
    /// The shrunk schedule as a Swift array literal of steps.
    public let scheduleLiteral: String
    /// A complete Swift Testing test that replays the shrunk schedule: paste it into a test
    /// target that imports `ConformanceTesting` and the adapter's module.
    public let regressionTest: String

    /// Creates a finding.
    package init(
        kind: Kind, invariant: ContractDescriptor, tier: ContractTier, report: ContractReport,
        originalSteps: Int, shrunkSteps: Int, scheduleLiteral: String, regressionTest: String
    ) {
        self.kind = kind
        self.invariant = invariant
        self.tier = tier
        self.report = report
        self.originalSteps = originalSteps
        self.shrunkSteps = shrunkSteps
        self.scheduleLiteral = scheduleLiteral
        self.regressionTest = regressionTest
    }
}

extension ExplorationFinding {
    /// What a headline says failed: `P4 late stale response failed` for a rule,
    /// `an adapter error stopped a step` or `a hang: a step never settled` for the others,
    /// which are no rule's verdict.
    package var failureTitle: String {
        switch kind {
        case .rule: "\(invariant.title) failed"
        case .adapterError: "an adapter error stopped a step (no rule's verdict)"
        case .hang: "a hang: a step never settled (no rule's verdict)"
        }
    }
}

extension ExplorationFinding.Kind {
    /// The descriptor a finding of this kind is shown under: the contract's for a broken rule
    /// (``init(_:contract:)`` makes one only for a contract the catalogue knows), else one
    /// for the adapter error or the hang.
    package var descriptor: ContractDescriptor {
        switch self {
        case .rule(let id):
            ContractCatalog.descriptor(id) ?? ContractDescriptor(id: id, name: id.rawValue, rule: "")
        case .adapterError:
            // Titled "adapter error" (the ID then the name), never "adapter adapter error".
            ContractDescriptor(id: "adapter", name: "error", rule: "The adapter must complete every step.")
        case .hang:
            ContractDescriptor(
                id: "hang", name: "(a step never settled)",
                rule: "Every step must settle: the subject returns or is provably blocked on the timeline.")
        }
    }
}
