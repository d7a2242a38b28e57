import ConformanceKit
import PagerContracts

extension BundledImplementations {
    /// The pager mutants, each with the contracts its one bug breaks and why.
    static var pagerMutants: [ImplementationUnderCheck] {
        appStyleMutants + [
            .pager(
                PagerThatRestartsWhileLoading.self, kind: .mutant,
                summary: "A duplicate bottom trigger cancels the load and starts the same page again.",
                ledger: [
                    .fails("P1", because: "two requests for one page"),
                    .blocked("P3", by: "P1", because: "the control trigger during page 3 restarts it"),
                    .blocked("P5", by: "P1", because: "the control trigger during B's page 2 restarts it"),
                    .blocked("P8", by: "P1", because: "the control trigger during B's page 2 restarts it"),
                ]),
            .pager(
                GuardedRefreshFeedAdapter.self, name: "GuardedRefreshFeed", kind: .mutant,
                summary: "From an outside trial: a value-type reducer whose pull to refresh clears the list but "
                    + "goes through the bottom trigger's in-flight guard, so during a load it starts no new generation.",
                ledger: [.fails("P11", because: "a refresh while a page loads starts no request, and the old page lands in the refreshed list")]),
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
                    .fails("P3", because: "a timeout of a request already answered shows an error and clears loading"),
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
                ledger: [
                    .fails("P8", because: "the old query's cancellation stops the new load"),
                    .fails("P11", because: "the cancellation of the request a refresh cancelled stops the refreshed load"),
                ]),
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
                ledger: [
                    .fails("P4", because: "a stale answer after the new query's first page leaves its cursor for the next request"),
                    .fails("P9", because: "a stale response's cursor is used for the next request"),
                    .fails("P11", because: "a pre-refresh answer after the refreshed first page leaves its cursor"),
                ]),
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
                    .fails("P6", because: "its catch of CancellationError returns before clearing the load task, so the live load's cancellation leaves loading set"),
                ]),
            .asyncPager(
                ViewModelThatSetsLoadingAfterTheAwaitAdapter.self,
                name: "ViewModelThatSetsLoadingAfterTheAwait", kind: .mutant,
                summary: "Sets the in-flight flag after the await, so a trigger during the load starts another.",
                ledger: [
                    .fails("P1", because: "a bottom trigger during the load requests the same page again"),
                    .fails("P4", because: "a stale answer sets the in-flight flag, which then blocks the new query's loads"),
                    .blocked("P5", by: "P1", because: "the control trigger while B's page 2 loads starts another"),
                    .blocked("P8", by: "P1", because: "the control trigger while B's page 2 loads starts another"),
                ]),
            .asyncPager(
                CallbackControllerThatMarksLoadingAfterTheCallAdapter.self,
                name: "CallbackControllerThatMarksLoadingAfterTheCall", kind: .mutant,
                summary: "Marks the load in flight after calling the loader; a cached answer is dropped.",
                ledger: [
                    .fails("P1", because: "a page answered as soon as it is asked for is dropped"),
                    .blocked("P2", by: "P1", because: "an already-available page 1 is dropped"),
                    .blocked("P3", by: "P1", because: "an already-available page 1 is dropped"),
                    .blocked("P4", by: "P1", because: "an already-available page 1 is dropped"),
                    .blocked("P5", by: "P1", because: "an already-available page 1 is dropped"),
                    .blocked("P6", by: "P1", because: "an already-available page 1 is dropped"),
                    .blocked("P7", by: "P1", because: "an already-available page 1 is dropped"),
                    .blocked("P8", by: "P1", because: "an already-available page 1 is dropped"),
                    .blocked("P12", by: "P1", because: "an already-available page 1 is dropped"),
                ]),
        ]
    }

    /// Buggy pagers written the way apps write them by an author who had not read the kit, one
    /// real bug each, their code unchanged (`Mutants/Pagers/AppStyle/`).
    static var appStyleMutants: [ImplementationUnderCheck] {
        [
            .pager(
                ReducerFeedStateAdapter.self, name: "ReducerFeedState", kind: .mutant,
                summary: "A reducer-style state that returns early on any cancellation error, before its ticket check.",
                ledger: [
                    .fails("P6", because: "a cancellation error of the live page 3 leaves loading set, so neither bottom nor retry asks again"),
                ]),
            .asyncPager(
                StaleCursorBeforeGuardPagerAdapter.self, name: "StaleCursorBeforeGuardPager",
                kind: .mutant,
                summary: "Stores a response's next cursor above the generation guard.",
                ledger: [
                    .fails("P4", because: "a stale answer after B's first page leaves its cursor for B's next request"),
                    .fails("P9", because: "a stale response's cursor is used for the next request"),
                    .fails("P11", because: "a pre-refresh answer after the refreshed first page leaves its cursor"),
                
                ]),
            .asyncPager(
                StalePageNumberBeforeGuardPagerAdapter.self, name: "StalePageNumberBeforeGuardPager",
                kind: .mutant,
                summary: "Writes nextPage = page + 1 above the generation guard.",
                ledger: [
                    .fails("P4", because: "a stale answer after D's first page makes D's next request skip a page"),
                    .fails("P11", because: "a pre-refresh answer after the refreshed first page moves the next page"),
                
                ]),
            .asyncPager(
                MainQueueCallbackPagerAdapter.self, name: "MainQueueCallbackPager", kind: .mutant,
                summary: "Written as correct; completions hop with Task { @MainActor in }. The kit "
                    + "found its bug: the ticket is the generation only, so a repeated completion "
                    + "of page 2 clears loading while page 3 loads.",
                ledger: [
                    .fails("P3", because: "a completion that runs again while the next page loads clears the loading state"),
                
                ]),
            .asyncPager(
                SelfChainingPagerAdapter.self, name: "SelfChainingPager", kind: .mutant,
                summary: "Fetches the next page by itself while pages add nothing new, without a bound.",
                ledger: [
                    .fails("P12", because: "it chains requests by itself past the no-progress bound"),
                
                ]),
            .asyncPager(
                QueryTextTicketSearchModelAdapter.self, name: "QueryTextTicketSearchModel", kind: .mutant,
                summary: "Recognises its answers by the query text, not a generation: after A, B, A the first A's late answer is taken.",
                ledger: [
                    .fails("P4", because: "after D, E, D the late answer to page 2 of the first visit to D is taken for the current D"),
                    .fails("P11", because: "a refresh keeps the query text, so an answer from before the refresh is taken"),
                ]),
            .asyncPager(
                LegacyFeedControllerAdapter.self, name: "LegacyFeedController", kind: .mutant,
                summary: "From an outside trial: a UIKit-era controller that recognises an answer by its filter text and page number, not a generation.",
                ledger: [
                    .fails("P4", because: "after D, E, D the late page 2 of the first visit to D lands while the second visit's page 2 loads, and is taken"),
                    .fails("P11", because: "a refresh keeps the filter, so the late page 2 from before it is taken while the new page 2 loads"),
                ]),
            .asyncPager(
                CachedCatalogModelAdapter.self, name: "CachedCatalogModel", kind: .mutant,
                summary: "From an outside trial: keeps each category's pages, and going back to a category resumes where its earlier visit stopped.",
                ledger: [
                    .fails("P4", because: "after D, E, D bottom reached asks for page 2 of D: the earlier visit's position is an answer to a non-current query"),
                ]),
            .asyncPager(
                HashtagTimelineControllerAdapter.self, name: "HashtagTimelineController", kind: .mutant,
                summary: "From an outside trial: reads the end of the list from a short page (posts.count < perPage), not from the server's hasMore.",
                ledger: [
                    .fails("P1", because: "page 1 has 3 rows, so the list ends and bottom reached after it starts nothing"),
                    .blocked("P2", by: "P1", because: "its page 2 is never asked for after the short page 1"),
                    .blocked("P3", by: "P1", because: "its page 2 is never asked for after the short page 1"),
                    .blocked("P4", by: "P1", because: "its page 2 is never asked for after the short page 1"),
                    .blocked("P5", by: "P1", because: "its page 2 is never asked for after the short page 1"),
                    .blocked("P6", by: "P1", because: "its page 2 is never asked for after the short page 1"),
                    .blocked("P7", by: "P1", because: "its page 2 is never asked for after the short page 1"),
                    .blocked("P8", by: "P1", because: "its page 2 is never asked for after the short page 1"),
                    .blocked("P12", by: "P1", because: "its page 2 is never asked for after the short page 1"),
                ]),
            .asyncPager(
                TaskSearchViewModelAdapter.self, name: "TaskSearchViewModel", kind: .mutant,
                summary: "From an outside trial: a view model whose load is a stored Task, cancelled on a query "
                    + "change; the stale answer is dropped, but a `defer` in the load ends the new query's loading state.",
                ledger: [
                    .fails("P4", because: "the old query's late page ends the loading state of B's page 2"),
                    .fails("P5", because: "the old query's timeout ends the loading state of B's page 2"),
                    .fails("P8", because: "the old query's cancellation error ends the loading state of B's page 2"),
                ]),
            .asyncPager(
                PrefetchTagTimelineAdapter.self, name: "PrefetchTagTimeline", kind: .mutant,
                summary: "From an outside trial: a generic Paginator<Item, Cursor> loaded from a prefetch threshold; "
                    + "its retry starts a load only from the idle phase, which a failure leaves.",
                ledger: [.fails("P6", because: "retry after a timeout starts no request")]),
            .asyncPager(
                RoundEightIntentFeedAdapter.self, name: "IntentStreamFeed", kind: .mutant,
                summary: "From an outside trial: an @Observable feed whose intents an AsyncStream loop reads; a search "
                    + "or refresh cancels the load task and trusts that, applying whatever the cancelled request returns.",
                ledger: [
                    .fails("P4", because: "the old query's late page is appended to B's list and ends the loading state of B's page 2"),
                    .fails("P5", because: "the old query's timeout shows an error and ends the loading state of B's page 2"),
                    .fails("P8", because: "the old query's cancellation error ends the loading state of B's page 2"),
                    .fails("P11", because: "the late page 2 from before the refresh is appended to the refreshed list"),
                ]),
            .asyncPager(
                RoundEightBridgedFeedDirectAdapter.self, name: "BridgedPhotoFeed", kind: .mutant,
                summary: "From an outside trial: a photo search over a continuation-bridged legacy client (checked "
                    + "through its async seam); a CancellationError returns before it clears the loading state.",
                ledger: [
                    .fails("P6", because: "a cancellation error of the live page 3 leaves loading set, so neither bottom nor retry asks again"),
                ]),
            .asyncPager(
                NotificationsFooterControllerAdapter.self, name: "NotificationsFooterController", kind: .mutant,
                summary: "From an outside trial: a UIKit-style controller that removes duplicates only against the previous page's IDs.",
                ledger: [.fails("P2", because: "a row of page 1 repeated on page 2's successor, and one repeated inside a page, are shown twice")]),
            .asyncPager(
                FilteredInboxViewModelAdapter.self, name: "FilteredInboxViewModel", kind: .mutant,
                summary: "Checks for a stalled cursor only when its request carried one: a first page that returns no cursor with hasMore: true is asked for again.",
                ledger: [
                    .fails("P10", because: "the first page returns the requested cursor (none) with hasMore: true, and the next bottom trigger asks for page 1 again"),
                ]),
        ]
    }
}

extension BundledImplementations {
    /// Pagers that trap (crash the process) on some contract. They are not part of ``all``: a
    /// trap cannot be caught in-process, so `swift run conformance` and the bundled tests would
    /// die with them. The kit's tests run their cells inside exit tests (a child process per
    /// cell, macOS and Linux), where a trap is a failed cell; see `Tests/BundledConformanceTests`.
    public static var trapping: [ImplementationUnderCheck] {
        [
            .asyncPager(
                TrapOnRepeatedIDPagerAdapter.self, name: "TrapOnRepeatedIDPager", kind: .mutant,
                summary: "Merges pages with Dictionary(uniqueKeysWithValues:), which traps on a repeated ID.",
                ledger: [
                    .fails("P2", because: "a page repeating a visible ID traps (Duplicate values for key)"),
                    .fails("P12", because: "pages repeating the visible IDs trap"),
                ], explorable: false),
        ]
    }
}
