import ConformanceKit
import PagerContracts

extension BundledImplementations {
    /// The pager mutants, each with the contracts its one bug breaks and why.
    static var pagerMutants: [ImplementationUnderCheck] {
        [
            .pager(
                PagerThatRestartsWhileLoading.self, kind: .mutant,
                summary: "A duplicate bottom trigger cancels the load and starts the same page again.",
                ledger: [
                    .fails("P1", because: "two requests for one page"),
                    .fails("P3", because: "a trigger during page 3 requests page 3 again"),
                    .fails("P5", because: "a trigger during the new query's load starts another"),
                    .fails("P8", because: "a trigger during the new query's load starts another"),
                ]),
            .pager(
                PagerThatSortsAfterDeduplicating.self, kind: .mutant,
                summary: "De-duplicates through a Set and sorts, losing the server's order.",
                ledger: [.fails("P2", because: "page 3's descending rows come back sorted")]),
            .pager(
                PagerThatAcceptsRepeatedCompletions.self, kind: .mutant,
                summary: "Checks only the generation, so a twice-run completion advances twice.",
                ledger: [.fails("P3", because: "the page position advances per delivery")]),
            .pager(
                PagerWhoseTicketIsThePageNumber.self, kind: .mutant,
                summary: "The ticket is the page number only: the old query's page 2 passes for the new one's.",
                ledger: [
                    .fails("P4", because: "the old page 2 is accepted while the new page 2 loads"),
                    .fails("P5", because: "the old page 2's timeout is taken as the new page 2's"),
                    .fails("P8", because: "the old page 2's cancellation is taken as the new one's"),
                    .fails("P11", because: "the pre-refresh page 2 is accepted after the refresh"),
                ]),
            .pager(
                PagerThatShowsStaleFailures.self, kind: .mutant,
                summary: "Failures skip the ticket check: an old request's timeout shows an error.",
                ledger: [
                    .fails("P5", because: "a stale timeout shows an error and clears loading"),
                    .fails("P8", because: "a stale cancellation error shows an error"),
                    .fails("P11", because: "a pre-refresh timeout shows an error"),
                ]),
            .pager(
                PagerThatAdvancesOnFailure.self, kind: .mutant,
                summary: "A failure advances the page, so retry skips the failed page.",
                ledger: [
                    .fails("P6", because: "retry asks for page 3 after page 2 failed"),
                    .fails("P13", because: "the retry after a failed fill skips the failed page"),
                ]),
            .pager(
                PagerThatForgetsTheEnd.self, kind: .mutant,
                summary: "start() ignores hasMore.",
                ledger: [.fails("P7", because: "bottom triggers keep loading after the last page")]),
            .pager(
                PagerThatTreatsCancellationAsCurrent.self, kind: .mutant,
                summary: "A cancellation error clears loading before the ticket check.",
                ledger: [.fails("P8", because: "the old query's cancellation stops the new load")]),
            .pager(
                PagerThatKeepsGenerationOnRefresh.self, kind: .mutant,
                summary: "Refresh resets the page but keeps the generation.",
                ledger: [.fails("P11", because: "the pre-refresh page 2 matches the new page 2's ticket")]),
            .pager(
                PagerThatChainsEmptyPages.self, kind: .mutant,
                summary: "No bound on accepted pages that add nothing new.",
                ledger: [.fails("P12", because: "loads chain forever on all-duplicate pages")]),
            .pager(
                PagerThatCommitsFillAtTheEnd.self, kind: .mutant,
                summary: "A fill buffers its pages and commits them together at the end.",
                ledger: [.fails("P13", because: "page 1 of the fill is not visible before page 2 is requested")]),
            .pager(
                CursorPagerThatTakesAnyCursor.self, kind: .mutant,
                summary: "Stores every response's cursor before the ticket check.",
                ledger: [.fails("P9", because: "a stale response's cursor is used for the next request")]),
            .pager(
                CursorPagerWithoutStallCheck.self, kind: .mutant,
                summary: "No check that the cursor advanced.",
                ledger: [.fails("P10", because: "the stalled cursor is requested again")]),
            .pager(
                CursorPagerWithoutCycleCheck.self, kind: .mutant,
                summary: "Catches only a cursor equal to the one just requested (a same-key check).",
                ledger: [.fails("P10", because: "the cycle A, B, A is requested again (recommended part)")]),
            .pager(
                CursorPagerThatRestartsAfterTheEnd.self, kind: .mutant,
                summary: "\"No cursor\" means \"start again\" after the last page.",
                ledger: [.fails("P7", because: "bottom reached at the end reloads page 1")]),
            .asyncPager(
                ViewModelThatChecksCancellationBeforeTheAwaitAdapter.self,
                name: "ViewModelThatChecksCancellationBeforeTheAwait", kind: .mutant,
                summary: "Checks cancellation only before the await; a cancelled load's answer is written.",
                ledger: [
                    .fails("P4", because: "the cancelled load's late page is appended to the new query"),
                    .fails("P5", because: "the cancelled load's timeout shows an error on the new query"),
                    .fails("P8", because: "data arriving for a cancelled load is written"),
                ]),
            .asyncPager(
                ViewModelThatSetsLoadingAfterTheAwaitAdapter.self,
                name: "ViewModelThatSetsLoadingAfterTheAwait", kind: .mutant,
                summary: "Sets the in-flight flag after the await, so a trigger during the load starts another.",
                ledger: [
                    .fails("P1", because: "a bottom trigger during the load requests the same page again"),
                    .fails("P5", because: "a bottom trigger while the new query's page loads starts another"),
                    .fails("P8", because: "a bottom trigger while the new query's page loads starts another"),
                ]),
            .asyncPager(
                CallbackControllerThatMarksLoadingAfterTheCallAdapter.self,
                name: "CallbackControllerThatMarksLoadingAfterTheCall", kind: .mutant,
                summary: "Marks the load in flight after calling the loader; a cached answer is dropped.",
                ledger: [
                    .fails("P2", because: "an already-available page 1 is dropped (only under that mode)"),
                    .fails("P3", because: "an already-available page 1 is dropped"),
                    .fails("P4", because: "an already-available page 1 is dropped"),
                    .fails("P5", because: "an already-available page 1 is dropped"),
                    .fails("P6", because: "an already-available page 1 is dropped"),
                    .fails("P7", because: "an already-available page 1 is dropped"),
                    .fails("P8", because: "an already-available page 1 is dropped"),
                    .fails("P12", because: "the dropped page leaves the load marked in flight forever"),
                ]),
        ]
    }
}
