import ConformanceTesting
import Testing

@Suite struct BridgeTests {
    @Test func aViolationIsRecordedAsAnIssueWithTheBugReport() async throws {
        let contract = try #require(PagerContract.contract("P2"))
        await withKnownIssue {
            await contract.check(PagerWithoutDeduplication.self)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.hasPrefix("P2 cross-page duplicate IDs: Expected") }
        }
    }

    @Test func contractsThatDoNotApplyAreListedWithTheirReason() {
        let contracts = PagerContract.all(for: UUIDPagerAdapter.self)
        #expect(contracts.count == 13)
        let skipped = contracts.filter { $0.applicability?.isApplicable == false }
        #expect(skipped.map(\.id) == ["P9", "P10", "P11", "P13"])
        #expect(skipped.first?.testDescription
            == "P9 cursor carried by the ticket (not applicable: needs cursor pagination; the adapter uses page numbers)")
    }

    @Test func aContractThatDoesNotApplyIsNotAPass() async throws {
        let contract = try #require(PagerContract.contract("P9"))
        let report = await contract.run(against: UUIDPagerAdapter.self)
        #expect(report.outcome == .notApplicable(reason: "needs cursor pagination; the adapter uses page numbers"))
    }
}
