@testable import BundledImplementations
import Testing
@testable import WriteQueueContracts

/// Q8 answers a retry slowly, most of the request timeout after it started, and then expects a
/// delay measured from that answer. A queue that counts from the request's start resends at
/// once; the hint named an integer overflow for it (the thirty-fifth outside trial followed the
/// hint, and found no overflow to clamp).
@Suite("Q8's hint after a slow failure")
struct SlowFailureBackoffHintTests {
    @Test("a delay counted from the request's start is named as such")
    func aDelayCountedFromTheStartIsNamed() async throws {
        let report = try await #require(WriteQueueContract.contract("Q8")).run(against: InspectionReportOutboxAdapter.self)
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        #expect(violation.summary.contains("Expected retry #2 of op-1 to wait a positive delay"), "\(violation.summary)")
        #expect(violation.hint?.contains("count the backoff delay from the answer") == true, "\(report.fullText)")
        #expect(violation.hint?.contains("overflow") == false)
    }
}
