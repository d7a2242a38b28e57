import BundledImplementations
import ConformanceKit
import Testing
import WriteQueueContracts

/// A jittered backoff (`JitterBackoffOutbox`: a random delay between half and all of
/// `min(cap, base × 2^n)`) seldom waits its full cap twice in a row, so "the delay sat at the
/// cap twice" never came: Q8 printed each of its 70 retries on a line of its own and never
/// played the crash and relaunch its documentation promises (the twenty-eighth outside trial's
/// `NotesOutbox`). The delay is steady once three retries in a row wait no longer than the
/// longest before them.
@Suite("Q8 on a jittered backoff")
struct JitteredBackoffTests {
    @Test("The retries once the jitter reached the cap are one line, then a crash and a relaunch")
    func jitteredBackoffReachesTheRelaunch() async throws {
        let report = try await #require(WriteQueueContract.contract("Q8")).run(against: JitterBackoffOutboxAdapter.self)
        #expect(report.outcome == .passed, "\(report.fullText)")
        let lines = report.transcript.entries.map(\.text)
        #expect(lines.contains { $0.hasPrefix("retries #") && $0.contains("–#70 of op-1 after ") }, "\(report.transcript)")
        #expect(lines.contains { $0.hasPrefix("crash") }, "\(report.transcript)")
        #expect(lines.contains { $0.hasPrefix("retry of op-1 after the relaunch: ") }, "\(report.transcript)")
        #expect(lines.count(where: { $0.hasPrefix("retry #") }) < 20, "\(report.transcript)")
    }
}
