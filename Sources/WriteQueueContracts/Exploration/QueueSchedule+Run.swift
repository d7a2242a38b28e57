import ConformanceKit
import Foundation

extension QueueSchedule {
    /// The descriptor a queue schedule's report names: the three queue invariants.
    public static let invariants = ContractDescriptor(
        id: "I7–I9", name: "exploration invariants",
        rule: ContractCatalog.invariants.suffix(3).map { "\($0.id) \($0.name)." }.joined(separator: " "))

    /// Replays this schedule against a queue launched from fresh storage by `adapter` and
    /// checks I7–I9 after every step.
    /// - Parameters:
    ///   - adapter: The queue's adapter.
    ///   - options: The watchdog limit.
    /// - Returns: Passed, or failed with the first invariant violation and the transcript.
    public func run<A: WriteQueueAdapter>(against adapter: A.Type, options: RunOptions = RunOptions()) async
        -> ContractReport
    {
        await replay(against: A.self, watchdog: options.watchdog).report
    }

    /// What a replay found.
    struct Replay: Sendable {
        var report: ContractReport
        var invariant: ContractID?
        var failingIndex: Int?
        var applied: [Bool]
    }

    func replay<A: WriteQueueAdapter>(against adapter: A.Type, watchdog: Duration) async -> Replay {
        let outcome = ReplayOutcome()
        let steps = self.steps
        let report = await ContractRun.execute(
            Self.invariants, subject: String(describing: A.self), watchdog: watchdog
        ) { recorder in
            let harness = try QueueHarness<A>(recorder: recorder)
            let execution = QueueScheduleExecution(harness: harness)
            do {
                try await harness.launch()
                for (index, step) in steps.enumerated() {
                    outcome.index = index
                    outcome.applied.append(true)
                    outcome.applied[index] = try await execution.apply(step)
                }
            } catch let failure as QueueScheduleExecution<A>.Failure {
                outcome.invariant = failure.invariant
                await harness.finish()
                throw recorder.fail(failure.violation)
            } catch {
                outcome.invariant = "adapter"
                await harness.finish()
                throw error
            }
            outcome.index = nil
            await harness.finish()
        }
        if case .failed = report.outcome, outcome.invariant == nil { outcome.invariant = "adapter" }
        return Replay(
            report: report, invariant: outcome.invariant, failingIndex: outcome.invariant == nil ? nil : outcome.index,
            applied: outcome.applied)
    }
}

/// What a replay's body saw, read after the run ends.
private final class ReplayOutcome: @unchecked Sendable {
    var invariant: ContractID?
    var index: Int?
    var applied: [Bool] = []
}
