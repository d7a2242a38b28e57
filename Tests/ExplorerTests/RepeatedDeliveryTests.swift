import BundledImplementations
import ConformanceTesting
import Testing

/// A page delivered again while the next page loads is accepted once: the explorer judges the
/// second delivery itself, under P3. The thirty-first trial's buggy search screen (a completion
/// taken while loading for the same query text, not by its token) took page 1 again as page 2's
/// answer and ended its list on it (a keyset page that adds nothing); the explorer saw it only
/// when the liveness check found the list stuck two steps later, and named it P6.
@Suite struct RepeatedDeliveryTests {
    static let schedule: PagerSchedule = [
        .bottomReached, .deliver(request: 1, rows: [1]), .bottomReached, .redeliver(request: 1),
    ]

    @Test func aSecondDeliveryThatEndsTheListIsP3() async throws {
        let report = await Self.schedule.run(against: BuggyItemSearchViewModelAdapter.self, modes: [.immediate])
        let violation = try #require(report.outcome.violations.first, "\(report.fullText)")
        #expect(report.contract.id == "P3", "\(report.fullText)")
        #expect(violation.summary.hasPrefix("P3 duplicate completion (a page delivered again changes nothing): "), "\(violation.summary)")
        #expect(violation.summary.contains("the second delivery of request #1"), "\(violation.summary)")
        #expect(violation.step == 5, "the second delivery is the failing step (step 1 is the start)")
    }

    @Test func theSameScheduleOnTheCorrectScreenPasses() async {
        let report = await Self.schedule.run(against: ItemSearchViewModelAdapter.self)
        #expect(report.outcome == .passed, "\(report.fullText)")
    }
}
