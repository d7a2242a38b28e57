/// What one exploration of one implementation did and found.
public struct ExplorationResult: Hashable, Sendable {
    /// The implementation explored (its adapter's name).
    public let subject: String
    /// How schedules were chosen.
    public let strategy: ExplorationStrategy
    /// Schedules executed up to and including the first failing one, or all of them when
    /// nothing failed.
    public let schedules: Int
    /// Steps executed over those schedules.
    public let steps: Int
    /// The first failure, shrunk, or `nil` when every invariant held.
    public let finding: ExplorationFinding?
    /// Wall time of the whole exploration, shrinking included (measured, never used to decide).
    public let seconds: Double
    /// Wall time up to the first failure, before shrinking.
    public let secondsToFailure: Double?

    /// Creates a result.
    public init(
        subject: String, strategy: ExplorationStrategy, schedules: Int, steps: Int,
        finding: ExplorationFinding?, seconds: Double, secondsToFailure: Double?
    ) {
        self.subject = subject
        self.strategy = strategy
        self.schedules = schedules
        self.steps = steps
        self.finding = finding
        self.seconds = seconds
        self.secondsToFailure = secondsToFailure
    }

    /// One line: what was explored and what was found.
    public var headline: String {
        guard let finding else {
            return "\(subject): no invariant failed in \(schedules) schedules (\(strategy))"
        }
        return "\(subject): \(finding.invariant.title) failed after \(schedules) schedules "
            + "(\(strategy)); shrunk from \(finding.originalSteps) to \(finding.shrunkSteps) steps"
    }

    /// The headline, the shrunk failure as a bug report and the regression test to paste.
    public var fullText: String {
        guard let finding else { return headline }
        var parts = [headline]
        parts += finding.report.outcome.violations.map { finding.report.message(for: $0) }
        parts.append("Regression test (paste into a test target):\n\n" + finding.regressionTest)
        return parts.joined(separator: "\n\n")
    }
}
