import Foundation

/// The shared record of one contract run: its transcript, violations, notes, and what the kit
/// is waiting for right now.
///
/// Timelines write to it as they go; the watchdog reads it from another thread when it fires,
/// so a hung subject still produces a report with the steps up to the hang.
package final class TimelineRecorder: Sendable {
    private struct State {
        var transcript = Transcript()
        var violations: [Violation] = []
        var blocking: (contract: ContractID, violation: Violation)?
        var notes: [String] = []
        var waitingFor = "the timeline to start"
        var progress = 0
        var waitingDetail: (@Sendable () -> String)?
    }

    private let state = Locked(rawValue: State())

    /// The tier of the contract being run; violations default to it.
    package let tier: ContractTier

    /// Creates an empty recorder for a contract of the given tier.
    package init(tier: ContractTier) {
        self.tier = tier
    }

    /// Appends a step to the transcript and returns its number.
    @discardableResult
    package func record(_ text: String) -> Int {
        let step = state.withLock { $0.transcript.record(text) }
        if Self.echoesSteps { StepEcho.write(step: step, text) }
        return step
    }

    /// Replaces every step after `step` with one step saying `text` (see
    /// ``Transcript/collapse(after:into:)``), unless a violation was recorded: the steps it
    /// points at are kept. The progress the watchdog reads still only grows.
    package func collapse(after step: Int, into text: String) {
        let summary: Int? = state.withLock { state in
            guard state.violations.isEmpty, state.blocking == nil else { return nil }
            state.progress += state.transcript.collapse(after: step, into: text)
            return state.transcript.entries.count
        }
        if let summary, Self.echoesSteps { StepEcho.write(step: summary, text) }
    }

    /// Whether every step is also written to standard error as it is recorded (the environment
    /// variable `CONFORMANCE_ECHO_STEPS=1`), so a process that traps still leaves its timeline
    /// up to the trap behind: the `conformance` command and the kit's exit tests read it.
    static let echoesSteps = ProcessInfo.processInfo.environment[StepEcho.environmentVariable] == "1"

    /// Adds a note (something the kit could not check), once.
    package func note(_ text: String) {
        state.withLock { state in
            if !state.notes.contains(text) { state.notes.append(text) }
        }
    }

    /// Says what the kit is about to wait for; the watchdog quotes it if it fires.
    package func setWaiting(for description: String) {
        state.withLock { state in
            state.waitingFor = description
            state.progress += 1
        }
    }

    /// How often the timeline moved on: a wait began (each settle sets one) or a step was
    /// recorded. The watchdog reads it to tell a long timeline from a hung one.
    package var progress: Int {
        state.withLock { $0.progress + $0.transcript.entries.count }
    }

    /// Adds what the subject's source sees to every wait description (read only when the
    /// watchdog fires): the requests parked, the triggers pending and their evidence.
    package func setWaitingDetail(_ provider: @escaping @Sendable () -> String) {
        state.withLock { $0.waitingDetail = provider }
    }

    /// What the kit is waiting for now, with what the source sees.
    package var currentWait: String {
        let (text, detail) = state.withLock { ($0.waitingFor, $0.waitingDetail) }
        guard let detail else { return text }
        return "\(text). The source saw: \(detail())"
    }

    /// The number of the last recorded step.
    package var lastStep: Int { state.withLock { $0.transcript.entries.count } }

    /// Records a violation at the last step (unless it names its own step).
    package func add(_ violation: Violation) {
        state.withLock { state in
            var violation = violation
            if violation.step == nil { violation.step = state.transcript.entries.count }
            state.violations.append(violation)
        }
    }

    /// Whether any violation has been recorded so far.
    package var hasViolations: Bool { state.withLock { !$0.violations.isEmpty } }

    /// Records a violation and returns the error that stops the timeline.
    package func fail(_ violation: Violation) -> TimelineStop {
        add(violation)
        return TimelineStop()
    }

    /// Records that a setup step failed because another rule, `blocker`, is broken, and returns
    /// the error that stops the timeline. The cell is reported as blocked by that rule unless
    /// a violation was recorded too (its own rule's, an adapter error, a watchdog), which wins. The
    /// violation should carry the blocking rule's hint; its tier defaults to that rule's.
    package func block(by blocker: ContractID, _ violation: Violation) -> TimelineStop {
        state.withLock { state in
            var violation = violation
            if violation.step == nil { violation.step = state.transcript.entries.count }
            if let tier = ContractCatalog.descriptor(blocker)?.tier { violation.tier = tier }
            if state.blocking == nil { state.blocking = (blocker, violation) }
        }
        return TimelineStop()
    }

    /// The report for everything recorded so far.
    package func report(
        for contract: ContractDescriptor, subject: String
    ) -> ContractReport {
        let state = state.rawValue
        return ContractReport(
            contract: contract,
            subject: subject,
            outcome: !state.violations.isEmpty
                ? .failed(state.violations)
                : state.blocking.map { .blocked(by: $0.contract, $0.violation) } ?? .passed,
            transcript: state.transcript,
            notes: state.notes
        )
    }
}

/// Thrown by a timeline after it recorded a violation: the run stops at the failing step.
package struct TimelineStop: Error, Sendable {
    /// Creates the stop signal.
    package init() {}
}
