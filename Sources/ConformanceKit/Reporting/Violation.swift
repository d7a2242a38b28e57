/// One way an implementation broke a contract, phrased as a bug report.
public struct Violation: Hashable, Sendable {
    /// What kind of finding this is.
    public enum Kind: String, Hashable, Sendable {
        /// The implementation broke the rule.
        case contract
        /// The adapter did something the kit cannot interpret (threw from a step that may
        /// not throw, reported state it declared it would not, and so on). Not a verdict on
        /// the rule: fix the adapter first.
        case adapterError
        /// The watchdog fired: the subject never reached the point the kit was waiting for.
        case watchdog
        /// The process died during the run (a trap, a signal): the subject crashed while the
        /// contract was checking it. The step is the last one recorded before the crash.
        case crash
    }

    /// What kind of finding this is.
    public var kind: Kind
    /// Whether this finding is an error or, for a recommended rule, a warning.
    public var tier: ContractTier
    /// One line in "Expected …, but …" form.
    public var summary: String
    /// The expected value, labelled, or `nil` when the summary says it all.
    public var expected: String?
    /// The actual value, labelled, or `nil` when the summary says it all.
    public var actual: String?
    /// A `-`/`+` difference between expected and actual lists, when both are lists.
    public var difference: String?
    /// The likely cause and fix.
    public var hint: String?
    /// The transcript step at which the violation was seen.
    public var step: Int?

    /// Creates a violation.
    package init(
        kind: Kind = .contract,
        tier: ContractTier = .required,
        summary: String,
        expected: String? = nil,
        actual: String? = nil,
        difference: String? = nil,
        hint: String? = nil,
        step: Int? = nil
    ) {
        self.kind = kind
        self.tier = tier
        self.summary = summary
        self.expected = expected
        self.actual = actual
        self.difference = difference
        self.hint = hint
        self.step = step
    }
}
