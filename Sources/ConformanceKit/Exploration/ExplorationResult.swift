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
    /// Async level: triggers skipped because the kit could not have observed them settle
    /// (every task priority above a parked load was spent by earlier joins and probes), over
    /// the schedules counted. Such a trigger is skipped, like a step that cannot apply.
    public let unobservableTriggers: Int
    /// Async level: `alreadyAvailable` replays that ended early because a step came where a
    /// planned answer was due (a trigger skipped under one delivery mode and not the other).
    public let inapplicableSchedules: Int

    /// Creates a result.
    package init(
        subject: String, strategy: ExplorationStrategy, schedules: Int, steps: Int,
        finding: ExplorationFinding?, seconds: Double, secondsToFailure: Double?,
        unobservableTriggers: Int = 0, inapplicableSchedules: Int = 0
    ) {
        self.unobservableTriggers = unobservableTriggers
        self.inapplicableSchedules = inapplicableSchedules
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
            return "\(subject): no rule failed in \(schedules) schedules (\(strategy))\(skips)"
        }
        return "\(subject): \(finding.invariant.title) failed after \(schedules) schedules "
            + "(\(strategy)); shrunk from \(finding.originalSteps) to \(finding.shrunkSteps) steps"
    }

    /// What was skipped, when anything was: `; skipped 12 unobservable triggers, 1 inapplicable schedule`.
    package var skips: String {
        var parts: [String] = []
        if unobservableTriggers > 0 {
            parts.append("\(unobservableTriggers) unobservable trigger\(unobservableTriggers == 1 ? "" : "s")")
        }
        if inapplicableSchedules > 0 {
            parts.append("\(inapplicableSchedules) inapplicable schedule\(inapplicableSchedules == 1 ? "" : "s")")
        }
        return parts.isEmpty ? "" : "; skipped " + parts.joined(separator: ", ")
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
