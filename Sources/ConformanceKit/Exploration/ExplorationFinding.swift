/// A failure the explorer found: the invariant, the shrunk schedule's report and the
/// regression test to paste.
public struct ExplorationFinding: Hashable, Sendable {
    /// The invariant that failed, such as `I4 nothing from a non-current query ever becomes
    /// visible`.
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
        invariant: ContractDescriptor, tier: ContractTier, report: ContractReport,
        originalSteps: Int, shrunkSteps: Int, scheduleLiteral: String, regressionTest: String
    ) {
        self.invariant = invariant
        self.tier = tier
        self.report = report
        self.originalSteps = originalSteps
        self.shrunkSteps = shrunkSteps
        self.scheduleLiteral = scheduleLiteral
        self.regressionTest = regressionTest
    }
}
