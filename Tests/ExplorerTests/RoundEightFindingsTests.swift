@testable import BundledImplementations
import ConformanceTesting
import Testing

/// What the eighth outside round showed, pinned with its implementations (names changed only):
/// an answer the explorer gave a request its queue had already timed out on, and one bug (a key
/// made at send time) reported under Q2 as well as Q1.
struct RoundEightFindingsTests {
    /// `ReachabilityOutbox` races each request against its 30 s timeout on the injected clock.
    /// The clock reached 30 s through the queue's own timeout (a wait due at the same instant as
    /// the declared request timeout goes first), the queue gave up on send #1, and the explorer
    /// then answered it 409: a false Q4 (and a false Q9 for a 400), on every run with seeds 1, 2
    /// and 7. A request past its declared timeout now times out instead.
    @Test func anAnswerPastTheRequestTimeoutTimesOut() async {
        let schedule: QueueSchedule = [
            .submit, .submit, .sendingPass, .advanceClock, .sendingPass, .answer(send: 1, .conflict),
            .advanceClock, .answer(send: 2, .success),
        ]
        let report = await schedule.run(against: RoundEightReachabilityAdapter.self)
        #expect(report.outcome == .passed, "\(report.fullText)")
        #expect(report.fullText.contains("send #1 reached the declared request timeout of 30 s"), "\(report.fullText)")
    }

    /// `OperationKeyUploader` makes the idempotency key when it sends and stores it only after
    /// the answer. Q1 catches that; Q2 failed as well ("key none → …" after a dropped
    /// connection) and Q3 was blocked by Q2. Both are now blocked by Q1, with its rule.
    @Test(arguments: ["Q2", "Q3"])
    func aKeyMadeAtSendTimeIsQ1s(_ contract: String) async throws {
        let queue = try #require(BundledImplementations.queues.first { $0.name == "OperationKeyUploader" })
        let report = await queue.run(ContractID(contract))
        #expect(report.outcome.blockedBy == "Q1", "\(report.outcome)")
    }
}
