@testable import BundledImplementations
import ConformanceTesting
import Testing

/// The thirty-eighth outside trial's notes queue merged an edit into the update whose request
/// was in flight. Answered with a success, the request completed the edit unsent, and the
/// explorer said nothing: it counted the key's success for both bodies. It is now judged from
/// storage at the edit, whatever answer comes next.
struct EditDuringSendTests {
    static let schedule: QueueSchedule = [
        .update, .sendingPass, .update, .answerAttempt(1, ofOperation: 1, .success), .sendingPass,
    ]

    @Test func anEditMergedIntoTheUpdateInFlightIsQ2EvenWhenTheSendSucceeds() async throws {
        let report = await Self.schedule.run(against: BuggyNoteSyncQueueAdapter.self)
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        #expect(violation.summary.hasPrefix("Q2 unknown outcome keeps the task"), "\(violation.summary)")
        #expect(violation.summary.contains("storage now holds the body of op-2 under it"), "\(violation.summary)")
        #expect(violation.step == 5, "judged at the edit, before any answer:\n\(report.fullText)")
    }

    @Test func anEditStoredApartFromTheUpdateInFlightPasses() async {
        let report = await Self.schedule.run(against: NoteSyncQueueAdapter.self)
        #expect(report.outcome.violations.isEmpty, "\(report.fullText)")
    }
}
