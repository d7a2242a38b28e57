/// What one exploration of one implementation did and found.
public struct ExplorationResult: Hashable, Sendable {
    /// The implementation explored (its adapter's name).
    public let subject: String
    /// How schedules were chosen.
    public let strategy: ExplorationStrategy
    /// Schedules executed: the whole budget for a random search, which goes on after a finding;
    /// up to the first failing prefix for a bounded exhaustive one.
    public let schedules: Int
    /// Steps executed over those schedules.
    public let steps: Int
    /// Every distinct broken rule found, each shrunk on its own: required rules first, then in
    /// the order the search met them.
    public let findings: [ExplorationFinding]
    /// The rules the exploration was told to expect (``ExplorationOptions/expecting``).
    public let expected: Set<ContractID>
    /// Wall time of the whole exploration, shrinking included (measured, never used to decide).
    public let seconds: Double
    /// Wall time of the search before shrinking, when something was found.
    public let secondsToFailure: Double?
    /// Async level: triggers skipped because the kit could not have observed them settle
    /// (every task priority above a parked load was spent by earlier joins and probes), over
    /// the schedules counted. Such a trigger is skipped, like a step that cannot apply.
    public let unobservableTriggers: Int
    /// Those triggers by kind, each named as its step in a schedule (`.bottomReached`,
    /// `.refresh`, `.submit`, …; `answers` for a request an answer started), so you can tell
    /// which ones the search could not explore.
    public let unobservableTriggersByKind: [String: Int]
    /// Async level: `alreadyAvailable` replays that ended early because a step came where a
    /// planned answer was due (a trigger skipped under one delivery mode and not the other).
    public let inapplicableSchedules: Int
    /// Failures the search met that did not fail again, either when the same schedule ran once
    /// more at once or when it was replayed after shrinking: not reproducible (a hang on a
    /// loaded machine, say), so not findings and never a reason to stop; counted so they are
    /// never silent.
    public var unreproducedFailures: Int { unreproduced.count }
    /// Those failures, in schedule order: which schedule, what failed, what its rerun did.
    package let unreproduced: [UnreproducedFailure]
    /// A bounded exhaustive search: the longest schedule length it ran in full, every schedule
    /// of that many steps or fewer (`nil` when the budget cut even the shortest ones short, and
    /// for a random search). Below the strategy's depth, the budget ran out first.
    public let completeDepth: Int?

    /// Creates a result.
    package init(
        subject: String, strategy: ExplorationStrategy, schedules: Int, steps: Int,
        findings: [ExplorationFinding], expected: Set<ContractID> = [], seconds: Double, secondsToFailure: Double?,
        unobservableTriggers: Int = 0, unobservableTriggersByKind: [String: Int] = [:], inapplicableSchedules: Int = 0,
        unreproduced: [UnreproducedFailure] = [],
        completeDepth: Int? = nil
    ) {
        self.unreproduced = unreproduced.sorted { $0.schedule < $1.schedule }
        self.completeDepth = completeDepth
        self.findings = findings.enumerated().sorted { left, right in
            (left.element.tier == .required ? 0 : 1, left.offset) < (right.element.tier == .required ? 0 : 1, right.offset)
        }.map(\.element)
        self.expected = expected
        self.unobservableTriggers = unobservableTriggers
        self.unobservableTriggersByKind = unobservableTriggersByKind
        self.inapplicableSchedules = inapplicableSchedules
        self.subject = subject
        self.strategy = strategy
        self.schedules = schedules
        self.steps = steps
        self.seconds = seconds
        self.secondsToFailure = secondsToFailure
    }

    /// The findings of rules the exploration was not told to expect.
    public var unexpectedFindings: [ExplorationFinding] {
        findings.filter { finding in finding.kind.contract.map { !expected.contains($0) } ?? true }
    }

    /// The first unexpected finding (a required rule's before a recommended one's), or `nil`
    /// when every rule held or broke only as expected.
    public var finding: ExplorationFinding? { unexpectedFindings.first }

    /// Expected rules nothing broke: a known finding that stopped happening, so its entry in
    /// ``ExplorationOptions/expecting`` can go.
    public var expectedButNotFound: [ContractID] {
        expected.filter { id in !findings.contains { $0.kind == .rule(id) } }.sorted()
    }

    /// One line: what was explored and what was found.
    public var headline: String {
        var notes: [String] = []
        let known = findings.filter { finding in finding.kind.contract.map { expected.contains($0) } ?? false }
        if !known.isEmpty { notes.append("expected: " + known.map(\.invariant.id.rawValue).joined(separator: ", ")) }
        if !expectedButNotFound.isEmpty {
            notes.append("expected but not found: " + expectedButNotFound.map(\.rawValue).joined(separator: ", "))
        }
        let tail = notes.isEmpty ? "" : "; " + notes.joined(separator: "; ")
        let unexpected = unexpectedFindings
        guard let first = unexpected.first else {
            return "\(subject): no rule failed in \(schedules) schedules (\(strategy)\(coverage))\(skips)\(tail)"
        }
        let others = unexpected.dropFirst().map(\.invariant.title)
        return "\(subject): \(first.failureTitle)"
            + (others.isEmpty ? "" : " (and \(others.joined(separator: ", ")))")
            + "; \(schedules) schedules explored (\(strategy)); shrunk from \(first.originalSteps) to \(first.shrunkSteps) steps"
            + skips + tail
    }

    /// For an exhaustive search that found nothing, whether it ran every schedule up to its
    /// depth: `; all of them`, or `; the budget ran out: complete to depth 3`.
    private var coverage: String {
        guard case .exhaustive(let depth) = strategy else { return "" }
        guard let complete = completeDepth else {
            return "; incomplete, the budget ran out before any depth was complete (raise the budget)"
        }
        return complete >= depth
            ? "; all of them"
            : "; incomplete, the budget ran out: complete to depth \(complete) of \(depth) (raise the budget)"
    }

    /// What was skipped, when anything was: `; skipped 12 unobservable triggers of 2400 steps
    /// (9 .refresh, 3 .bottomReached), 1 inapplicable schedule`. The steps give the share of
    /// the search that went unexplored (the thirty-seventh outside trial saw "317 unobservable
    /// triggers" and could not tell how much that was).
    package var skips: String {
        var parts: [String] = []
        if unobservableTriggers > 0 {
            parts.append(
                "\(unobservableTriggers) unobservable trigger\(unobservableTriggers == 1 ? "" : "s") of \(steps) steps"
                    + (unobservableTriggersByKind.isEmpty ? "" : " (\(SkippedTriggers.breakdown(unobservableTriggersByKind)))"))
        }
        if inapplicableSchedules > 0 {
            parts.append("\(inapplicableSchedules) inapplicable schedule\(inapplicableSchedules == 1 ? "" : "s")")
        }
        if unreproducedFailures > 0 {
            parts.append(
                "\(unreproducedFailures) failure\(unreproducedFailures == 1 ? "" : "s") whose replay passed (not reproducible)")
        }
        return parts.isEmpty ? "" : "; skipped " + parts.joined(separator: ", ")
    }

    /// The headline, then each unexpected finding as a bug report with its regression test to
    /// paste.
    public var fullText: String {
        ([headline] + unexpectedFindings.map(report(of:)) + (unreproducedReport.map { [$0] } ?? []))
            .joined(separator: "\n\n")
    }

    /// The failures whose replay passed, one line each (the first 10), with what they may mean;
    /// `nil` when there were none.
    package var unreproducedReport: String? {
        guard !unreproduced.isEmpty else { return nil }
        // Each with its steps, to replay by hand (the thirty-fourth trial could not tell a race
        // in its controller from a false alarm: the listing named the schedule by number only).
        let shown = unreproduced.prefix(10).map { failure in
            "  " + failure.line + (failure.literal.map { "\n    steps: " + $0 } ?? "")
        }
        let more = unreproduced.count > 10 ? ["  … and \(unreproduced.count - 10) more"] : []
        return (["Not reproduced (\(strategy)): \(unreproduced.count) failure\(unreproduced.count == 1 ? "" : "s") "
            + "the same schedule did not show again, so none is a finding:"] + shown + more + [
                "  A schedule that waited out the watchdog on a loaded machine looks like this; so does a race "
                    + "in the implementation that only some thread interleavings reach, or randomness it draws "
                    + "itself (backoff jitter or IDs from the system generator: inject a seeded generator in the "
                    + "adapter to make runs repeatable). If the same rule shows up here run after run, or on an "
                    + "idle machine, look for such a race under that rule."
            ]).joined(separator: "\n")
    }

    /// One finding as a bug report: what broke, the shrunk schedule's timeline and the
    /// regression test to paste.
    public func report(of finding: ExplorationFinding) -> String {
        var parts = [
            "\(subject): \(finding.failureTitle) (\(strategy)); shrunk from \(finding.originalSteps) "
                + "to \(finding.shrunkSteps) steps"
        ]
        parts += finding.report.outcome.violations.map { finding.report.message(for: $0) }
        parts.append("Regression test (paste into a test target):\n\n" + finding.regressionTest)
        return parts.joined(separator: "\n\n")
    }
}
