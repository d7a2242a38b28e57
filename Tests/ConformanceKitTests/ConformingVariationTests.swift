import ConformanceTesting
import Testing

/// Correct code the kit must never flag: UUID IDs, a query change that loads by itself, and
/// no reported state beyond the visible items.
@Test(arguments: PagerContract.all(for: UUIDPagerAdapter.self).filter { $0.applicability?.isApplicable == true })
func uuidPagerPassesEveryApplicableContract(_ contract: PagerContract) async {
    let report = await contract.run(against: UUIDPagerAdapter.self, options: RunOptions(strict: true))
    #expect(report.outcome == .passed, "\(report.fullText)")
}
