@testable import BundledImplementations
import ConformanceTesting
import Testing
@testable import WriteQueueContracts

/// A queue trigger the kit could not see join a parked request is skipped, as the pager
/// explorer skips one, never waited on until the watchdog.
@Suite struct QueueUnobservableTriggerTests {
    /// `JitterBackoffOutbox`'s passes join the running pass. Each join raises the parked
    /// request one task priority: after the fifth pass it sits at the top of the five, so a
    /// sixth pass could join it unseen.
    @Test func aPassThatCouldJoinUnseenIsSkippedAndCounted() async throws {
        let steps: [QueueSchedule.Step] = [.submit] + Array(repeating: .sendingPass, count: 7)
        let replay = await QueueSchedule(steps).replay(against: JitterBackoffOutboxAdapter.self, watchdog: .seconds(60))
        #expect(replay.report.outcome == .passed, "\(replay.report.fullText)")
        #expect(replay.unobservableTriggers >= 1, "\(replay.applied)")
        #expect(replay.applied.last == false, "the last pass is skipped, not run")
        #expect(replay.applied.prefix(3).allSatisfy { $0 }, "the first passes run")
    }
}
