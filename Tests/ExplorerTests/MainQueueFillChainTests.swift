@testable import BundledImplementations
import ConformanceKit
import Dispatch
@testable import PagerContracts
import Testing

/// The thirty-fourth outside trial's search controller: a completion-handler API that may answer
/// synchronously, every answer hopped to the main queue, pages chained from there until five
/// rows show.
@Suite("A fill-the-screen chain of main-queue hops")
struct MainQueueFillChainTests {
    /// With answers already available, each page of the chain was asked for from a main-queue
    /// block that no trigger of the kit ran, and settling stopped somewhere along it: the same
    /// seed listed 1 to 9 failures whose replay passed and 3 to 11 inapplicable schedules, a
    /// different count on every run. The main queue is now drained after every synchronous
    /// answer until none comes.
    @Test("answers already available: the same seed gives the same, clean search")
    func theSearchIsRepeatableAndClean() async {
        let options = ExplorationOptions(strategy: .random(seed: 1), budget: 500)
        let first = await PagerExploration.explore(CatalogSearchResultsAdapter.self, modes: [.alreadyAvailable], options: options)
        #expect(first.findings.isEmpty, "\(first.fullText)")
        #expect(first.unreproducedFailures == 0, "\(first.fullText)")
        #expect(first.inapplicableSchedules == 0, "\(first.fullText)")
        let second = await PagerExploration.explore(CatalogSearchResultsAdapter.self, modes: [.alreadyAvailable], options: options)
        #expect(second.headline == first.headline)
        #expect(second.steps == first.steps)
    }

    /// A refresh that keeps the set of IDs already shown drops the refreshed first page's rows
    /// as duplicates. The explorer named it P2 or P13, by how many rows a schedule lost, never
    /// P11, which the fixed contracts name; it is now found as P11 first, with no other
    /// required finding.
    @Test("a refresh that keeps its seen IDs is one finding, P11", arguments: [1, 2, 3] as [UInt64])
    func aRefreshThatKeepsItsSeenIDsIsP11(seed: UInt64) async throws {
        let result = await PagerExploration.explore(
            BuggyCatalogSearchResultsAdapter.self,
            options: ExplorationOptions(strategy: .random(seed: seed), budget: 500))
        // P13 (recommended) may come beside it: a schedule whose refreshed rows were all
        // dropped while the fill chain went on looks like a fill committed at the chain's end.
        #expect(result.findings.first?.invariant.id == "P11", "\(result.fullText)")
        #expect(result.findings.dropFirst().allSatisfy { $0.invariant.id == "P13" }, "\(result.fullText)")
        let finding = try #require(result.findings.first)
        #expect(finding.report.outcome.violations.first?.summary.contains("dropped as if already shown") == true, "\(finding.report.fullText)")
    }

    /// A controller that loads its first page in `init`: with answers already available, that
    /// load took the answer the plan meant for the first trigger's request, and the screen
    /// filled one page ahead of every step (P1 failed under that mode alone).
    @Test("a first load started at init waits for the timeline's first answer")
    func aLoadStartedAtInitIsAnsweredByTheTimeline() async {
        for contract in PagerContract.all(for: LoadsAtInitCatalogSearchAdapter.self) {
            let report = await contract.run(against: LoadsAtInitCatalogSearchAdapter.self)
            #expect(report.outcome.violations.isEmpty, "\(report.fullText)")
        }
    }
}

/// The trial's controller, with its first page asked for while the adapter creates it, as a
/// screen that loads in `init` or `viewDidLoad` does.
private struct LoadsAtInitCatalogSearchAdapter: AsyncPagerAdapter {
    static var capabilities: PagerCapabilities { CatalogSearchResultsAdapter.capabilities }
    let wrapped: CatalogSearchResultsAdapter

    init(source: PageSource) async {
        wrapped = await CatalogSearchResultsAdapter(source: source)
        await MainActor.run { [controller = wrapped.controller] in controller.lastRowWillDisplay() }
    }

    func bottomReached() async { await wrapped.bottomReached() }
    func changeQuery(to query: String) async { await wrapped.changeQuery(to: query) }
    func refresh() async { await wrapped.refresh() }
    func retry() async { await wrapped.retry() }
    func snapshot() async -> PagerSnapshot<Int> { await wrapped.snapshot() }
}
