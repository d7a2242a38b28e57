import ConformanceKit

/// One implementation's line in `conformance explore`, and its JSON object.
struct ExploreRow: Encodable {
    let implementation: String
    let kind: String
    let level: String
    let strategy: String
    let found: Bool
    /// What the first finding is: `rule` (a contract's rule broke), `adapterError` or `hang`.
    let findingKind: String?
    /// The first finding's contract, such as `P7` (required findings come first); `adapter`
    /// or `hang` for a finding that is no rule's.
    let invariant: String?
    /// Its name, such as `end of list`.
    let invariantName: String?
    /// Every distinct broken rule found, first one first, such as `["P4", "P12"]`.
    let findings: [String]
    let tier: String?
    /// Steps in the shrunk schedule.
    let steps: Int?
    /// Steps in the schedule as found, before shrinking.
    let originalSteps: Int?
    /// Schedules explored (the whole budget for a random search).
    let schedules: Int
    /// Steps executed over those schedules.
    let stepsExecuted: Int
    let seconds: Double
    let secondsToFailure: Double?
    /// Async pagers: triggers skipped because the kit could not have observed them settle.
    let unobservableTriggers: Int
    /// Those triggers by kind (`.refresh`: 9).
    let unobservableTriggersByKind: [String: Int]
    /// Async pagers: `alreadyAvailable` replays that did not apply and ended early.
    let inapplicableSchedules: Int
    /// Failures whose replay after shrinking passed: not reproducible, so not findings.
    let unreproducedFailures: Int
    /// Exhaustive: the longest schedule length run in full (below the depth: the budget ran out).
    let completeDepth: Int?
    /// Exhaustive: the depth asked for.
    let depth: Int?
    /// For a mutant: the failing contract of its ledger whose fixed timeline fails soonest.
    let fixedContract: String?
    /// Steps of that timeline up to its failing step.
    let fixedSteps: Int?
    /// Whether the result is what the implementation's kind asks for.
    let ok: Bool
    let regressionTest: String?

    init(implementation: ImplementationUnderCheck, result: ExplorationResult) async {
        self.implementation = implementation.name
        kind = implementation.kind.rawValue
        level = implementation.level.rawValue
        strategy = result.strategy.description
        found = result.finding != nil
        findingKind = result.finding?.kind.name
        invariant = result.finding?.invariant.id.rawValue
        invariantName = result.finding?.invariant.name
        findings = result.unexpectedFindings.map { finding in
            finding.invariant.id.rawValue
                + (finding.tier != finding.invariant.tier ? " (its \(finding.tier.rawValue) part)" : "")
        }
        tier = result.finding?.tier.rawValue
        steps = result.finding?.shrunkSteps
        originalSteps = result.finding?.originalSteps
        schedules = result.schedules
        completeDepth = result.completeDepth
        if case .exhaustive(let depth) = result.strategy { self.depth = depth } else { depth = nil }
        stepsExecuted = result.steps
        seconds = result.seconds
        secondsToFailure = result.secondsToFailure
        unobservableTriggers = result.unobservableTriggers
        unobservableTriggersByKind = result.unobservableTriggersByKind
        inapplicableSchedules = result.inapplicableSchedules
        unreproducedFailures = result.unreproducedFailures
        regressionTest = result.finding?.regressionTest
        var fixed: (ContractID, Int)?
        if implementation.kind == .mutant {
            for entry in implementation.ledger.entries {
                let report = await implementation.run(entry.contract)
                guard let step = report.outcome.violations.first?.step else { continue }
                if fixed == nil || step < fixed!.1 { fixed = (entry.contract, step) }
            }
        }
        fixedContract = fixed?.0.rawValue
        fixedSteps = fixed?.1
        // A mutant must be found, and its shrunk schedule must be no longer than the fixed
        // timeline that catches it; a reference or an adopter must not be flagged.
        if implementation.kind == .mutant {
            let shrunk = steps ?? .max
            ok = found && (fixed.map { shrunk <= $0.1 } ?? true)
        } else {
            ok = !found
        }
    }

    /// `PagerThatForgetsTheEnd (mutant): found P7 end of list in 2000 schedules; shrunk 3 → 3 steps (fixed timeline P7: 5 steps), 0.01 s`.
    /// `1 failure`, `2 failures`.
    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    var line: String {
        let head = "\(implementation) (\(kind))"
        let verdict = ok ? "ok" : "UNEXPECTED"
        var skipped: [String] = []
        if unobservableTriggers > 0 {
            let kinds = unobservableTriggersByKind.isEmpty ? "" : ": \(SkippedTriggers.breakdown(unobservableTriggersByKind))"
            skipped.append("\(Self.count(unobservableTriggers, "unobservable trigger")) of \(stepsExecuted) steps skipped\(kinds)")
        }
        if inapplicableSchedules > 0 {
            skipped.append("\(Self.count(inapplicableSchedules, "schedule")) not applicable")
        }
        if unreproducedFailures > 0 {
            skipped.append("\(Self.count(unreproducedFailures, "failure")) whose replay passed")
        }
        if let depth, !found {
            skipped.insert(
                completeDepth.map { $0 >= depth ? "all of them" : "budget ran out: complete to depth \($0)" }
                    ?? "budget ran out before any depth was complete", at: 0)
        }
        let skips = skipped.isEmpty ? "" : " (" + skipped.joined(separator: "; ") + ")"
        guard found, let invariant, let invariantName, let steps else {
            return "\(head): no rule failed in \(schedules) schedules\(skips), "
                + String(format: "%.2f s", seconds) + " — \(verdict)"
        }
        let fixed = fixedContract.map { " (fixed timeline \($0): \(fixedSteps ?? 0) steps)" } ?? ""
        let others = findings.dropFirst()
        return "\(head): found \(invariant) \(invariantName) in \(schedules) schedules; shrunk "
            + "\(originalSteps ?? steps) → \(steps) steps\(fixed)"
            + (others.isEmpty ? "" : "; also found \(others.joined(separator: ", "))") + ", "
            + String(format: "%.2f s", seconds) + " — \(verdict)"
    }
}
