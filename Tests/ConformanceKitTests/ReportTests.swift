import ConformanceTesting
import Testing

@Suite struct ReportTests {
    @Test func aFailureReadsLikeABugReport() async throws {
        let contract = try #require(PagerContract.contract("P2"))
        let report = await contract.run(against: PagerWithoutDeduplication.self)
        let violation = try #require(report.outcome.violations.first)
        let message = report.message(for: violation)
        #expect(message.hasPrefix("P2 cross-page duplicate IDs: Expected the visible items to be [1, 2, 3, 4, 5, 6]"))
        #expect(message.contains("Rule: An item whose ID is already visible is not shown again"))
        #expect(message.contains("Expected visible: [1, 2, 3, 4, 5, 6]"))
        #expect(message.contains("Actual   visible: [1, 2, 3, 3, 4, 2, 5, 4, 6]"))
        #expect(message.contains("+ 3  (position 4 shown)"))
        #expect(message.contains("▶ 4. answer request #2 (page 2 of query A): rows [3, 4, 2, 5, 4, 6]"))
        #expect(message.contains("Hint: Keep the set of visible IDs"))
        #expect(report.subject == "PagerWithoutDeduplication")
    }

    @Test func stateTheAdapterDoesNotReportIsNotedNotGuessed() async throws {
        let contract = try #require(PagerContract.contract("P1"))
        let report = await contract.run(against: UUIDPagerAdapter.self)
        #expect(report.outcome == .passed)
        #expect(report.notes == ["The adapter does not report the loading state: checks of it were skipped."])
    }

    @Test func recommendedFindingsAreErrorsOnlyWhenStrict() {
        let descriptor = ContractDescriptor(id: "P12", name: "no-progress stall", rule: "", tier: .recommended)
        let report = ContractReport(
            contract: descriptor, subject: "X",
            outcome: .failed([Violation(tier: .recommended, summary: "Expected …, but …")]))
        #expect(!report.hasErrors(strict: false))
        #expect(report.hasErrors(strict: true))
    }
}
