@testable import BundledImplementations
import ConformanceKit
import ConformanceTesting
import Foundation
import Testing

/// The Swift Testing entry point records one issue with the shrunk schedule and the code to
/// paste, and nothing for a correct pager.
@Suite struct ExploreEntryPointTests {
    @Test func exploreRecordsOneIssueForAMutant() async {
        // Matched issues, counted across the matcher's calls.
        let issues = Locked(rawValue: 0)
        await withKnownIssue("the mutant ignores hasMore") {
            let result = await explore(PagerThatForgetsTheEnd.self, seed: 3, budget: 500)
            #expect(result.finding?.invariant.id == "P7")
        } matching: { issue in
            let text = String(describing: issue)
            issues.withLock { $0 += 1 }
            return text.contains("P7 end of list (invariant I5 no request after the end of the list)")
                && text.contains("let schedule: PagerSchedule = [")
                && text.contains("seed 3")
        }
        #expect(issues.rawValue == 1)
    }

    @Test func exploreRecordsNothingForTheReferences() async {
        await explore(SeedPagerAdapter.self, seed: 3, budget: 300)
        await explore(CursorPagerAdapter.self, seed: 3, budget: 300)
        await explore(FeedStoreAdapter.self, options: ExplorationOptions(strategy: .exhaustive(depth: 4)))
    }

    /// The `options:` entry point takes every kind of adapter, as the explorer's guide shows:
    /// an async pager's and a write queue's bounded exhaustive search record nothing for correct
    /// code, and run their schedules to the depth asked.
    @Test func theOptionsEntryPointTakesAsyncPagersAndWriteQueues() async {
        let pager = await explore(
            FeedViewModelAdapter.self, modes: [.immediate],
            options: ExplorationOptions(strategy: .exhaustive(depth: 2), budget: 500))
        #expect(pager.findings.isEmpty)
        #expect(pager.completeDepth == 2, "\(pager.headline)")
        let queue = await explore(
            TicketOutboxAdapter.self, options: ExplorationOptions(strategy: .exhaustive(depth: 2), budget: 500))
        #expect(queue.findings.isEmpty)
        #expect(queue.completeDepth == 2, "\(queue.headline)")
    }

    @Test func aRecommendedFindingIsAWarningByDefault() async {
        // The no-progress stop is P12's recommended rule: a warning, as the catalogue's tiers
        // say, unless the caller asks for strict checking.
        let result = await explore(PagerThatChainsEmptyPages.self, seed: 1, budget: 500)
        #expect(result.finding?.tier == .recommended)
        #expect(result.finding?.regressionTest.contains("await schedule.check(PagerThatChainsEmptyPages.self)") == true)
    }

    @Test func aStrictExplorationMakesItAnErrorAndPrintsAStrictRegressionTest() async {
        await withKnownIssue("P12's finding, made an error by strict") {
            let result = await explore(PagerThatChainsEmptyPages.self, seed: 1, budget: 500, strict: true)
            #expect(
                result.finding?.regressionTest.contains(
                    "await schedule.check(PagerThatChainsEmptyPages.self, options: RunOptions(strict: true))") == true)
        } matching: { issue in
            String(describing: issue).contains("P12")
        }
    }
}
