// The README's quick start, compiled and run as written: if this file stops compiling, the
// README is wrong.
import ConformanceTesting
import ReferenceImplementations
import Testing

struct MyPagerAdapter: PagerModelAdapter {
    var pager = Pager<Int>()  // your pager here

    mutating func bottomReached() -> PageRequest<PageTicket>? {
        pager.start().map { PageRequest($0, page: $0.page) }
    }

    mutating func changeQuery(to query: String) -> PageRequest<PageTicket>? {
        pager.reset()
        return nil
    }

    mutating func deliver(_ response: PageResponse, for ticket: PageTicket) -> PageRequest<PageTicket>? {
        pager.finish(ticket, rows: response.rows.map(\.id), hasMore: response.hasMore)
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: PageTicket) -> PageRequest<PageTicket>? {
        pager.fail(ticket)
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(
            visibleIDs: pager.ids, isLoading: pager.isLoading, hasMore: pager.hasMore,
            showsError: pager.failed)
    }
}

@Test(arguments: PagerContract.all(for: MyPagerAdapter.self))
func myPagerConforms(_ contract: PagerContract) async {
    await contract.check(MyPagerAdapter.self)
}

// Docs/Pagers.md, "Contracts that do not apply": the same suite without the contracts that do
// not apply (a CI that fails on warnings).
@Test(arguments: PagerContract.all(for: MyPagerAdapter.self).filter { $0.applicability?.isApplicable ?? true })
func myPagerConformsWhereApplicable(_ contract: PagerContract) async {
    #expect(contract.applicability?.isApplicable == true)
    await contract.check(MyPagerAdapter.self)
}
