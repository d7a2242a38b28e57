import ConformanceTesting
import Testing

/// Every combination of the conforming variations, in the smallest correct pager, passes every
/// applicable contract: the kit flags none of them.
@Suite struct MinimalPagerConformanceTests {
    @Test(.serialized, arguments: MinimalPager.Settings.combinations)
    func everyCombinationPassesEveryApplicableContract(_ settings: MinimalPager.Settings) async {
        await MinimalPager.Settings.$current.withValue(settings) {
            for contract in PagerContract.all(for: MinimalPagerAdapter.self)
            where contract.applicability?.isApplicable == true {
                let report = await contract.run(against: MinimalPagerAdapter.self)
                #expect(report.outcome == .passed, "\(report.fullText)")
            }
        }
    }

    @Test func theCombinationsCoverEveryVariation() {
        let all = MinimalPager.Settings.combinations
        #expect(Set(all.map(\.duplicate)).count == 3)
        #expect(Set(all.map(\.completion)).count == 3)
        #expect(all.contains { $0.serialRequests && $0.throughIntermediateTask && $0.fillTarget > 0 })
        #expect(all.count == 112)
    }
}
