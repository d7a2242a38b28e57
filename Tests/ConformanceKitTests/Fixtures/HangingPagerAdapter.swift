import ConformanceTesting
import Dispatch

/// A broken fixture whose first bottom trigger blocks until the test releases it: a hung
/// synchronous pager.
struct HangingPagerAdapter: PagerModelAdapter {
    static let release = DispatchSemaphore(value: 0)

    mutating func bottomReached() -> PageRequest<Int>? {
        Self.release.wait()
        return nil
    }

    mutating func changeQuery(to query: String) -> PageRequest<Int>? { nil }
    mutating func deliver(_ response: PageResponse, for ticket: Int) -> PageRequest<Int>? { nil }
    mutating func fail(_ failure: PageFailure, for ticket: Int) -> PageRequest<Int>? { nil }
    func snapshot() -> PagerSnapshot<Int> { PagerSnapshot(visibleIDs: []) }
}
