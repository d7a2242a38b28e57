/// Runs one contract's timeline under the watchdog and turns what happened into a report.
///
/// The pager and queue modules call this with their own timelines; it is the one place that
/// decides how a stop, an adapter error and a hang become a ``ContractReport``.
package enum ContractRun {
    /// Executes `body` and returns the report.
    ///
    /// - Parameters:
    ///   - contract: The contract being run.
    ///   - subject: The implementation's name, for the report.
    ///   - applicability: When not applicable, nothing runs and the report says why.
    ///   - watchdog: How long the timeline may go without progress (a step or a wait) before
    ///     it counts as hung.
    ///   - body: The timeline. It records steps and violations on the recorder and throws
    ///     ``TimelineStop`` to end at a failing step; any other error is an adapter error.
    /// - Returns: The report.
    package static func execute(
        _ contract: ContractDescriptor,
        subject: String,
        applicability: Applicability = .applicable,
        watchdog: Duration,
        body: @escaping @Sendable (TimelineRecorder) async throws -> Void
    ) async -> ContractReport {
        if case .notApplicable(let reason) = applicability {
            return ContractReport(
                contract: contract, subject: subject, outcome: .notApplicable(reason: reason))
        }
        let recorder = TimelineRecorder(tier: contract.tier)
        do {
            try await withWatchdog(
                limit: watchdog, waitingFor: { recorder.currentWait }, progress: { recorder.progress }
            ) {
                try await body(recorder)
            }
        } catch is TimelineStop {
            // The violation is already recorded.
        } catch let misuse as AdapterMisuse {
            recorder.add(Violation(kind: .adapterError, summary: misuse.summary, hint: misuse.hint))
        } catch let timeout as WatchdogTimeout {
            recorder.add(
                Violation(
                    kind: .watchdog, summary: timeout.description,
                    hint: "This is not a verdict on \(contract.id): the kit stopped waiting for what "
                        + "the message names. A subject that never answers, awaits work nobody "
                        + "resumes, or loops forever hangs here; so does a trigger the kit could not "
                        + "observe (\"no evidence it is blocked\": it waits on something other than "
                        + "the kit's source, or on work the kit cannot see). Raise the limit only if "
                        + "the subject is merely slow."))
        } catch {
            recorder.add(
                Violation(
                    kind: .adapterError,
                    summary: "Expected the adapter to complete the step, but it threw \(error).",
                    hint: "Only triggers may throw (a rejected trigger conforms). Delivering a "
                        + "response, reporting a failure or taking a snapshot must not throw."))
        }
        return recorder.report(for: contract, subject: subject)
    }
}
