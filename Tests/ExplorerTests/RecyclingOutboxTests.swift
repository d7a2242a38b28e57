import ConformanceTesting
import Testing

/// ``RecyclingOutbox`` is correct by every fixed Q contract; the explorer's per-step rules must
/// not flag it (reused row IDs, deleted completed tasks, keys dropped by stopped tasks, a pause
/// after each unknown outcome before the next task).
@Suite struct RecyclingOutboxTests {
    @Test(arguments: WriteQueueContract.all(for: RecyclingOutboxAdapter.self))
    func passesTheFixedContracts(_ contract: WriteQueueContract) async {
        await contract.check(RecyclingOutboxAdapter.self)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func theExplorerDoesNotFlagIt(seed: UInt64) async {
        let result = await QueueExploration.explore(
            RecyclingOutboxAdapter.self, options: ExplorationOptions(strategy: .random(seed: seed), budget: 600))
        #expect(result.finding == nil, "\(result.fullText)")
    }

    @Test func norDoesTheBoundedExhaustiveSearch() async {
        let result = await QueueExploration.explore(
            RecyclingOutboxAdapter.self, options: ExplorationOptions(strategy: .exhaustive(depth: 5), budget: 3_000))
        #expect(result.finding == nil, "\(result.fullText)")
    }

    /// The schedules the review traced by hand, each once a false alarm.
    @Test func theReviewedSchedulesPass() async throws {
        let schedules: [QueueSchedule] = [
            // A deleted row's ID reused by the next task (was Q2: "key changed").
            [.submit, .sendingPass, .answer(send: 1, .success), .submit],
            // A stopped task drops its key (was Q2), then an identical create (was Q1).
            [.submit, .sendingPass, .answer(send: 1, .conflict), .submitCopy(of: 1)],
            // Two tasks, a pause after each 503 (8 s, then 16 s): op-1's third request comes
            // 32 s after its second was answered, but 16 s after the pass's last answer (was Q8).
            [
                .submit, .submit, .sendingPass, .answer(send: 1, .status(503)), .advanceClock,
                .answer(send: 2, .status(503)), .advanceClock, .answer(send: 3, .status(503)), .advanceClock,
                .answer(send: 4, .status(503)), .advanceClock,
            ],
        ]
        for schedule in schedules {
            let report = await schedule.run(against: RecyclingOutboxAdapter.self)
            #expect(report.outcome.violations.isEmpty, "\(report.fullText)")
        }
    }
}
