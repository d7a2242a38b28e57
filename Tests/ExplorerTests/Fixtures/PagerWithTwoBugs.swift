import ConformanceTesting

/// A pager with two unrelated bugs, as real pagers have: it never de-duplicates (P2) and it
/// ignores the end of the list (P7). The explorer must report both, each shrunk on its own.
struct PagerWithTwoBugs: PagerModelAdapter {
    private var page = 1
    private var ids: [Int] = []
    private var loading: Int?
    private var generation = 0

    mutating func bottomReached() -> PageRequest<[Int]>? {
        guard loading == nil else { return nil }  // the end of the list is never checked
        loading = page
        return PageRequest([generation, page], page: page)
    }

    mutating func changeQuery(to query: String) -> PageRequest<[Int]>? {
        generation += 1
        page = 1
        ids = []
        loading = nil
        return nil
    }

    mutating func deliver(_ response: PageResponse, for ticket: [Int]) -> PageRequest<[Int]>? {
        guard ticket == [generation, page], loading == page else { return nil }
        ids += response.rows.map(\.id)  // no de-duplication
        page += 1
        loading = nil
        return nil
    }

    mutating func fail(_ failure: PageFailure, for ticket: [Int]) -> PageRequest<[Int]>? {
        if ticket == [generation, page] { loading = nil }
        return nil
    }

    func snapshot() -> PagerSnapshot<Int> {
        PagerSnapshot(visibleIDs: ids, isLoading: loading != nil)
    }
}
