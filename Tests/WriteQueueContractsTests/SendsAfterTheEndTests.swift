import BundledImplementations
import ConformanceKit
import Testing
import WriteQueueContracts

/// A queue that sends again at once whenever a request fails, and ignores cancellation, keeps
/// resending after the timeline ended (each request refused as cancelled): the end used to wait
/// for its pass until the watchdog fired, and a contract it had already failed got a second,
/// "not judged" issue 30 s later (the thirtieth outside trial's `OverflowOutbox`, whose delay
/// overflowed to zero at its 64th retry). Past a bound the kit leaves its requests unanswered
/// and stops waiting.
@Suite("Requests sent after the end of a timeline")
struct SendsAfterTheEndTests {
    @Test("A queue resending at once after the end gets its one verdict, and a note, not the watchdog")
    func resendingAfterTheEndEndsTheTimeline() async throws {
        let report = try await #require(WriteQueueContract.contract("Q8")).run(against: OverflowOutboxAdapter.self)
        let violations = report.outcome.violations
        #expect(violations.count == 1, "\(report.fullText)")
        #expect(violations.allSatisfy { $0.kind == .contract }, "\(report.fullText)")
        #expect(violations.first?.summary.contains("to wait a positive delay, but it was sent at once") == true, "\(report.fullText)")
        #expect(report.notes.contains { $0.hasPrefix("After the timeline ended the queue sent more than") }, "\(report.fullText)")
    }
}
