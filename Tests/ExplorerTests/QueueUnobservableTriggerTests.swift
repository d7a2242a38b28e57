@testable import BundledImplementations
import ConformanceKit
import ConformanceTesting
import Testing
@testable import WriteQueueContracts

/// A queue trigger the kit could not see join a parked request is taken as joined once the
/// global executor ran out (skipped, as the pager explorer skips one, where it is not watched),
/// never waited on until the watchdog.
@Suite struct QueueUnobservableTriggerTests {
    /// `JitterBackoffOutbox`'s passes join the running pass. Each join raises the parked
    /// request one task priority: after the fifth pass it sits at the top of the five, so a
    /// sixth pass could join it unseen. It used to be skipped and counted as unobservable; with
    /// the global executor watched, it runs and is taken as joined once every job the kit
    /// cannot see has run, so no part of the schedule is dropped.
    @Test func aPassThatCouldJoinUnseenRunsAsJoined() async throws {
        try #require(GlobalExecutorWatch.current != nil, "the runtime's enqueue hook was not found")
        let steps: [QueueSchedule.Step] = [.submit] + Array(repeating: .sendingPass, count: 7)
        let replay = await QueueSchedule(steps).replay(against: JitterBackoffOutboxAdapter.self, watchdog: .seconds(60))
        #expect(replay.report.outcome == .passed, "\(replay.report.fullText)")
        #expect(replay.unobservableTriggers.total == 0, "\(replay.applied)")
        #expect(replay.applied.allSatisfy { $0 }, "every pass runs: \(replay.applied)")
    }

    /// The top priority also fills with no join at all: `LeaseTableOutbox`'s passes each lease
    /// and send a task of their own, so six passes over six tasks park six requests, each one
    /// rung higher until the rungs run out. The timeline never saw a join, so the sixth pass is
    /// not skipped: it parks its own request, as the five before it did.
    @Test func aQueueThatNeverJoinedIsNotSkippedAtTheTopPriority() async throws {
        let steps: [QueueSchedule.Step] = Array(repeating: .submit, count: 6) + Array(repeating: .sendingPass, count: 6)
        let replay = await QueueSchedule(steps).replay(against: LeaseTableOutboxAdapter.self, watchdog: .seconds(60))
        #expect(replay.report.outcome == .passed, "\(replay.report.fullText)")
        #expect(replay.unobservableTriggers.total == 0, "\(replay.report.fullText)")
        #expect(replay.applied.allSatisfy { $0 }, "\(replay.applied)")
    }

    /// A crash leaves the dead launch's request parked, joined up to the top priority, until
    /// the end of the timeline. No task of the next launch can await it (its process is gone),
    /// so it holds no rung: the relaunched queue's pass starts low again and is not skipped.
    @Test func aCrashedLaunchsRequestsHoldNoPriority() async throws {
        let steps: [QueueSchedule.Step] = [.submit] + Array(repeating: .sendingPass, count: 5) + [.crash, .sendingPass]
        let replay = await QueueSchedule(steps).replay(against: JitterBackoffOutboxAdapter.self, watchdog: .seconds(60))
        #expect(replay.report.outcome == .passed, "\(replay.report.fullText)")
        #expect(replay.unobservableTriggers.total == 0, "\(replay.report.fullText)")
        #expect(replay.applied.allSatisfy { $0 }, "\(replay.applied)")
    }

    /// Five passes join the running pass, up to the top priority; then its request fails with a
    /// 503 and the running pass waits on the clock for its backoff. The joiners gave no new
    /// escalation (none is left to give), but they joined that pass's work, which now waits on
    /// the clock: they are blocked too, and the timeline goes on (it used to end on the watchdog).
    @Test func joinersFollowTheJoinedPassIntoItsBackoff() async throws {
        let steps: [QueueSchedule.Step] =
            [.submit] + Array(repeating: .sendingPass, count: 5) + [.answer(send: 1, .status(503)), .advanceClock]
        let replay = await QueueSchedule(steps).replay(against: JitterBackoffOutboxAdapter.self, watchdog: .seconds(20))
        #expect(replay.report.outcome == .passed, "\(replay.report.fullText)")
        #expect(replay.applied.allSatisfy { $0 }, "\(replay.applied)")
    }
}
