import ConformanceKit
import PagerContracts

extension BundledImplementations {
    /// The bundled pagers: references, adopters and mutants, each with its ledger.
    public static var pagers: [ImplementationUnderCheck] {
        [
            .pager(
                SeedPagerAdapter.self, name: "SeedPager", kind: .reference,
                summary: "The source document's Pager, with failure, retry, refresh, fill and stall."),
            .pager(
                CursorPagerAdapter.self, name: "CursorPager", kind: .reference,
                summary: "A cursor pager with the stall and cycle protocol errors."),
            .pager(
                FeedStoreAdapter.self, name: "FeedStore", kind: .adopter,
                summary: "An app-style list model with String IDs and the conforming variations."),
            .asyncPager(
                FeedViewModelAdapter.self, name: "FeedViewModel", kind: .adopter,
                summary: "An @MainActor @Observable view model with async/await."),
            .asyncPager(
                JoiningFeedViewModelAdapter.self, name: "JoiningFeedViewModel", kind: .adopter,
                summary: "A view model whose second trigger joins the running load task."),
            .asyncPager(
                SpawningFeedViewModelAdapter.self, name: "SpawningFeedViewModel", kind: .adopter,
                summary: "A view model that spawns its load and keeps working before awaiting it."),
            .asyncPager(
                CursorFeedActorAdapter.self, name: "CursorFeedActor", kind: .adopter,
                summary: "An actor-based cursor pager with UUID item IDs."),
            .asyncPager(
                CallbackFeedControllerAdapter.self, name: "CallbackFeedController", kind: .adopter,
                summary: "A completion-handler controller with a lock."),
        ] + appStyleAdopters + sixthTrialPagers + seventhTrialPagers + tenthTrialPagers + eleventhTrialPagers
            + twelfthTrialPagers
            + thirteenthTrialPagers
            + fourteenthTrialPagers
            + fifteenthTrialPagers
            + sixteenthTrialPagers
            + seventeenthTrialPagers
            + eighteenthTrialPagers
            + nineteenthTrialPagers
            + twentiethTrialPagers
            + twentyFirstTrialPagers
            + twentySecondTrialPagers
            + twentyThirdTrialPagers
            + thirtyFirstTrialPagers
            + thirtyThirdTrialPagers
            + thirtyFourthTrialPagers
            + thirtySeventhTrialPagers
            + thirtyNinthTrialPagers
            + pagerMutants
    }

    /// Pagers written the way apps write them by an author who had not read the kit, each at
    /// its own default settings (`Adopters/AppStyle/`).
    static var appStyleAdopters: [ImplementationUnderCheck] {
        [
            .asyncPager(
                FillScreenFeedModelAdapter.self, name: "FillScreenFeedModel", kind: .adopter,
                summary: "Every bottom trigger loads pages until 50 items (2.5 pages) are visible."),
            .asyncPager(
                DebouncedSearchModelAdapter.self, name: "DebouncedSearchModel", kind: .adopter,
                summary: "Triggers run through an intermediate task; a second one joins through it."),
            .asyncPager(
                AppearFeedModelAdapter.self, name: "AppearFeedModel", kind: .adopter,
                summary: "A cursor feed whose first page comes only from onAppear()."),
            .asyncPager(
                SerialQueryPagerAdapter.self, name: "SerialQueryPager", kind: .adopter,
                summary: "An actor with a serial request queue: a query change waits for the old request."),
            .asyncPager(
                DirectoryPagerAdapter.self, name: "DirectoryPager", kind: .adopter,
                summary: "A cursor directory with refresh only: no query change."),
        ]
    }

    /// The sixth independent trial: five pagers written by a helper that had not read the kit,
    /// from a prose brief, and adapted from the docs alone (see `Adopters/SixthTrial/README.md`).
    static var sixthTrialPagers: [ImplementationUnderCheck] {
        [
            .asyncPager(
                ReducerFeedStoreAdapter.self, name: "ReducerFeedStore", kind: .adopter,
                summary: "A reducer store (TCA's shape): send(_:) starts an effect Task and returns it; "
                    + "first page on appear; a search cancels the running effect."),
            .asyncPager(
                ConnectionSearchModelAdapter.self, name: "ConnectionSearchModel", kind: .adopter,
                summary: "From an outside trial: a @MainActor @Observable repository search over a GraphQL "
                    + "connection (edges, pageInfo { endCursor hasNextPage }), with a generation token and a stall check."),
            .asyncPager(
                RoundEightOffsetListAdapter.self, name: "OffsetListModel", kind: .adopter,
                summary: "From an outside trial: a @MainActor @Observable contacts list over an offset/limit service "
                    + "that answers on DispatchQueue.main; a request UUID drops stale and repeated answers."),
            .asyncPager(
                RoundEightCursorFeedAdapter.self, name: "CursorActorFeed", kind: .adopter,
                summary: "From an outside trial: an actor cursor pager with a generation, a cursor-cycle stop and a "
                    + "stall flag, mirrored by a @MainActor @Observable view model through versioned snapshots."),
            .asyncPager(
                PhotoGridControllerAdapter.self, name: "PhotoGridController", kind: .adopter,
                summary: "A @MainActor controller over a completion-handler service that answers on "
                    + "DispatchQueue.main; a request token drops stale pages."),
            .asyncPager(
                ClockDebouncedSearchModelAdapter.self, name: "ClockDebouncedSearchModel", kind: .adopter,
                summary: "A search debounced on an injected clock in a Task cancelled per keystroke; "
                    + "cursor pages from a stored load task."),
            .asyncPager(
                LegacyScrollControllerAdapter.self, name: "LegacyScrollController", kind: .mutant,
                summary: "A completion-handler controller with no stale-response guard on a query change "
                    + "(it guards refresh).",
                ledger: [
                    .fails("P4", because: "an old query's page is appended to the new list"),
                    .fails("P5", because: "an old query's failure is shown on the new list"),
                    .fails("P8", because: "an old query's answer at the bottom of the new list is shown"),
                ]),
            .asyncPager(
                OptimisticPageActorAdapter.self, name: "OptimisticPageActor", kind: .mutant,
                summary: "An actor that advances its page number when a request starts, so a retry "
                    + "skips the failed page.",
                ledger: [.fails("P6", because: "retry after a failure asks for the following page")]),
        ]
    }

    /// The seventh independent trial: pagers written by a helper that had not read the kit, and
    /// adapted from the docs alone (see `Adopters/SeventhTrial/README.md`).
    static var seventhTrialPagers: [ImplementationUnderCheck] {
        [
            .asyncPager(
                SearchFeedViewModelAdapter.self, name: "SearchFeedViewModel", kind: .mutant,
                summary: "An @Observable view model with cursors and a requestID check, written as correct: "
                    + "a failed refresh leaves the old cursor, so the next load continues the old list.",
                ledger: [
                    .fails("P6", because: "after a failed refresh, bottom reached asks for the old list's next "
                        + "cursor, not the first page again"),
                ]),
            .asyncPager(
                EventFeedModelAdapter.self, name: "EventFeedModel", kind: .adopter,
                summary: "Eighth trial: a @MainActor model whose long-running task reads an AsyncStream of "
                    + "events and starts each load in a child task; sendAndWait awaits the load it started."),
            .pager(
                ArticleListFeatureAdapter.self, name: "ArticleListFeature", kind: .mutant,
                summary: "A reducer value type that recognises an answer by the topic it was loaded for, "
                    + "not by the request it answers.",
                ledger: [
                    .fails("P3", because: "a page delivered again is taken for the next one of its topic"),
                    .fails("P4", because: "a late answer from an earlier visit to the same topic is accepted"),
                    .fails("P11", because: "an answer to a request made before the refresh is accepted"),
                ]),
        ]
    }

    /// The tenth independent trial: async pagers written by a helper that had not read the kit,
    /// and adapted from the docs alone (see `Adopters/TenthTrial/README.md`).
    static var tenthTrialPagers: [ImplementationUnderCheck] {
        [
            .asyncPager(
                CoalescingFeedAdapter.self, name: "CoalescingFeedViewModel", kind: .mutant,
                summary: "A view model over an actor that coalesces page loads (a caller joins the load in "
                    + "flight): cancelling on a query change leaves the old load in flight, so the new "
                    + "query's first page joins the old query's request.",
                ledger: [
                    .fails("P4", because: "the new query's first load joins the old query's request and shows its rows"),
                    .blocked("P5", by: "P4", because: "reaching a stale failure needs the new query's own request"),
                    .blocked("P8", by: "P4", because: "reaching a stale cancellation needs the new query's own request"),
                ]),
        ]
    }

    /// The eleventh independent trial: async pagers written by a helper that had not read the
    /// kit, and adapted from the docs alone (see `Adopters/EleventhTrial/README.md`).
    static var eleventhTrialPagers: [ImplementationUnderCheck] {
        [
            .asyncPager(
                CatalogViewModelAdapter.self, name: "CatalogViewModel", kind: .mutant,
                summary: "A @MainActor view model mirroring an actor loader through a snapshot stream; "
                    + "a duplicate bottom trigger joins the load in flight. It drops rows already "
                    + "visible, but not a row repeated inside one page, and has no cursor-stall guard.",
                ledger: [
                    .fails("P2", because: "a row repeated inside page 2 is shown twice"),
                    .fails("P10", because: "a page whose next cursor repeats the current one is followed"),
                ]),
        ]
    }

    /// The twelfth independent trial: async pagers written by a helper that had not read the
    /// kit, and adapted from the docs alone (see `Adopters/TwelfthTrial/README.md`).
    static var twelfthTrialPagers: [ImplementationUnderCheck] {
        [
            .asyncPager(
                ArticleListViewModelAdapter.self, name: "ArticleListViewModel", kind: .adopter,
                summary: "A @MainActor @Observable view model with a phase enum, cursors with no hasMore, "
                    + "request IDs checked after the await, cycle and no-progress stops."),
            .asyncPager(
                InboxPagerAdapter.self, name: "InboxPager", kind: .mutant,
                summary: "An actor with numbered pages and UUID items; a duplicate trigger joins the stored "
                    + "load task. Every load clears the task handle when it ends, an older generation's too.",
                ledger: [
                    .fails("P4", because: "a late stale answer clears the new query's load handle: loading turns false"),
                    .fails("P5", because: "a stale failure clears the new query's load handle"),
                    .fails("P8", because: "a stale cancellation clears the new query's load handle"),
                    .fails("P11", because: "a late answer from before the refresh clears the new load's handle"),
                ]),
        ]
    }
}

extension BundledImplementations {
    /// The thirteenth independent trial: pagers written from the docs alone by an author who had
    /// not read the kit's sources (see `Adopters/ThirteenthTrial/README.md`).
    static var thirteenthTrialPagers: [ImplementationUnderCheck] {
        [
            .pager(
                ReleaseNotesReducerAdapter.self, name: "ReleaseNotesReducer", kind: .adopter,
                summary: "A TCA-style pure reducer over page numbers: request IDs in the state, effects as "
                    + "values, adapted at the model level."),
            .asyncPager(
                ReleaseNotesStoreAdapter.self, name: "ReleaseNotesStore", kind: .adopter,
                summary: "The same reducer run by a small @MainActor @Observable store whose effects are "
                    + "tasks that send the response back as an action."),
            .asyncPager(
                GroupedTransactionsViewModelAdapter.self, name: "GroupedTransactionsViewModel", kind: .mutant,
                summary: "A @MainActor @Observable view model with day sections, cursors and a completion-handler "
                    + "service that hops to the main queue: the stale-request check guards only the success branch.",
                ledger: [
                    .fails("P3", because: "a completion that runs again with an error after its page arrived shows the error"),
                    .fails("P5", because: "a stale failure clears the spinner and shows an error"),
                    .fails("P8", because: "a stale cancellation clears the new query's spinner"),
                    .fails("P11", because: "a timeout of a request made before the refresh clears the spinner and shows an error"),
                ]),
        ]
    }
}

extension BundledImplementations {
    /// The fourteenth trial: three pagers, each with one subtle bug its author expected the kit
    /// to miss, written from the docs alone (see `Adopters/FourteenthTrial/README.md`).
    static var fourteenthTrialPagers: [ImplementationUnderCheck] {
        [
            .asyncPager(
                ActivityFeedStoreAdapter.self, name: "ActivityFeedStore", kind: .mutant,
                summary: "Fourteenth-trial actor with cursors and a cycle check: a refresh resets its fields by "
                    + "hand and forgets the cursors it has seen, so the same cursor after a refresh reads as a cycle.",
                ledger: [.fails("P9", because: "after a refresh, page 1's cursor (the one it returned before) is taken as a cycle: no next request")],
                // The explorer's server makes a new cursor for every answer; only P9's timeline
                // repeats one after a refresh, as a server whose cursors encode a position does.
                explorable: false),
            .asyncPager(
                SearchResultsModelAdapter.self, name: "SearchResultsModel", kind: .mutant,
                summary: "Fourteenth-trial @MainActor @Observable model with page numbers: a refresh leaves the "
                    + "old end-of-list flag set, so a retry after its page 1 failed requests nothing.",
                ledger: [.fails("P6", because: "after the list ended, a retry of the refresh's failed page 1 requests nothing")]),
        ]
    }
}

extension BundledImplementations {
    /// The fifteenth trial: pagers with one subtle bug each, which their author expected the kit
    /// to miss, written from the docs alone (see `Adopters/FifteenthTrial/README.md`).
    static var fifteenthTrialPagers: [ImplementationUnderCheck] {
        [
            .pager(
                TimelineFeedAdapter.self, name: "TimelineFeed", kind: .mutant,
                summary: "Fifteenth-trial struct state machine with page numbers and a no-progress stop: a page "
                    + "that is only partly duplicates does not reset the count, so the feed stalls early.",
                ledger: [.fails("P12", because: "three pages without progress, not in a row, stop loading")],
                // The explorer judges requests a pager makes, not ones it should have made.
                explorable: false),
            .asyncPager(
                ActivityLogStoreAdapter.self, name: "ActivityLogStore", kind: .mutant,
                summary: "Fifteenth-trial actor with cursors: retry clears the error footer when its load "
                    + "returns, even when the retried page failed again.",
                ledger: [.fails("P6", because: "a retried page that fails again shows no error")],
                // The explorer does not require an error to show after a failure.
                explorable: false),
        ]
    }
}

extension BundledImplementations {
    /// The sixteenth trial's pager with a bug its author expected the kit to miss, written from
    /// the docs alone (see `Adopters/SixteenthTrial/README.md`).
    static var sixteenthTrialPagers: [ImplementationUnderCheck] {
        [
            .pager(
                ActivityTimelineAdapter.self, name: "ActivityTimeline", kind: .mutant,
                summary: "Sixteenth-trial struct state machine with page numbers: de-duplication compares whole "
                    + "items (synthesised Equatable), not IDs, so a row edited between two fetches shows twice.",
                ledger: [.fails("P2", because: "a duplicate row that comes back edited is shown again")],
                // The explorer's rows are never edited.
                explorable: false),
        ]
    }
}

extension BundledImplementations {
    /// The seventeenth trial's pager with a bug its author expected the kit to miss, written
    /// from the docs alone (see `Adopters/SeventeenthTrial/README.md`).
    static var seventeenthTrialPagers: [ImplementationUnderCheck] {
        [
            .pager(
                CatalogSearchAdapter.self, name: "CatalogSearch", kind: .mutant,
                summary: "Seventeenth-trial value state and store with page numbers and a minimum query length: "
                    + "a query too short to search clears the list without starting a new generation.",
                ledger: [.fails("P4", because: "the earlier query's late page shows under a cleared search")],
                explorable: false),
        ]
    }
}

extension BundledImplementations {
    /// The eighteenth trial's pagers: two with a bug their author expected the kit to miss and
    /// a correct one written to be flagged wrongly, from the docs alone (see
    /// `Adopters/EighteenthTrial/README.md`).
    static var eighteenthTrialPagers: [ImplementationUnderCheck] {
        [
            .asyncPager(
                OrderHistoryAdapter.self, name: "OrderHistory", kind: .mutant,
                summary: "Eighteenth-trial @MainActor @Observable view model with page numbers and a status filter: "
                    + "a filter switch resets everything but the error, which its bottom trigger respects.",
                ledger: [.fails("P5", because: "an error shown for the old filter stops the new filter's first page")],
                // The explorer's invariants ask nothing of a bottom trigger under an error.
                explorable: false),
            .pager(
                CommentThreadAdapter.self, name: "CommentThread", kind: .mutant,
                summary: "Eighteenth-trial value-type pagination with cursors, sort switch and pull to refresh: "
                    + "a failure is matched by generation only, so a completion that runs again with a timeout "
                    + "after its page arrived shows an error.",
                ledger: [.fails("P3", because: "a timeout after the page arrived clears loading and shows an error")],
                // The explorer never fails a request it answered.
                explorable: false),
            .asyncPager(
                TeamDirectoryAdapter.self, name: "TeamDirectory", kind: .adopter,
                summary: "Eighteenth-trial @MainActor @Observable controller over a completion-handler service that "
                    + "decodes each page on a private queue and then applies it in Task { @MainActor }: "
                    + "the adapter names that queue."),
        ]
    }
}

extension BundledImplementations {
    /// The nineteenth trial's pagers, written from the docs alone (see
    /// `Adopters/NineteenthTrial/README.md`).
    static var nineteenthTrialPagers: [ImplementationUnderCheck] {
        [
            .pager(
                SavedPostsListAdapter.self, name: "SavedPosts", kind: .mutant,
                summary: "Nineteenth-trial controller with completion handlers over a value state with a snapshot: "
                    + "a page that adds no new post returns early, before it reads hasMore.",
                ledger: [.fails("P7", because: "an empty last page leaves the list open, and the next bottom trigger asks for more")]),
            .asyncPager(
                ArticleFeedAdapter.self, name: "ArticleFeed", kind: .mutant,
                summary: "Nineteenth-trial actor loader behind a @MainActor @Observable view model: each page is "
                    + "de-duplicated against the last 50 rows only, where offset drift can reach.",
                ledger: [.fails("P2", because: "a repeat of a row more than 50 rows up the list is shown twice")],
                // The explorer's lists stay far shorter than 50 rows.
                explorable: false),
            .asyncPager(
                ProductSearchAdapter.self, name: "ProductSearch", kind: .adopter,
                summary: "Nineteenth-trial search model that keeps the previous results on screen, dimmed, until "
                    + "the new query's first page arrives; String IDs and a refresh."),
        ]
    }

    /// The twentieth trial's pager, written from the docs alone (see
    /// `Adopters/TwentiethTrial/README.md`).
    static var twentiethTrialPagers: [ImplementationUnderCheck] {
        [
            .pager(
                NotificationsReducerForegroundReloadAdapter.self, name: "NotificationsReducer", kind: .mutant,
                summary: "Twentieth-trial reducer with effects, its adapter's refresh the foreground reload after "
                    + "ten minutes: that reload clears the list in the same generation and keeps a page load in flight.",
                ledger: [.fails("P11", because: "the old page 2 answer is accepted as the reloaded list's first page")]),
            .pager(
                ProductSearchConnectionAdapter.self, name: "ProductSearchConnection", kind: .adopter,
                summary: "Twentieth-trial sectioned search over a GraphQL connection (edges, pageInfo) that keeps "
                    + "the previous term's results on screen, dimmed, until the new term's first page arrives."),
        ]
    }

    /// The twenty-first trial's pagers, written from the docs alone (see
    /// `Adopters/TwentyFirstTrial/README.md`).
    static var twentyFirstTrialPagers: [ImplementationUnderCheck] {
        [
            .pager(
                ListMapCoordinatorAdapter.self, name: "ListMapCoordinator", kind: .mutant,
                summary: "Twenty-first-trial coordinator shared by a list and a map screen, page numbers, with a "
                    + "failure budget: three failures in a row pause loading, counted before the ticket check.",
                ledger: [.fails("P5", because: "three earlier searches' timeouts show the error and pause loading")]),
            .asyncPager(
                GenericPaginatorAdapter.self, name: "GenericPaginator", kind: .mutant,
                summary: "Twenty-first-trial generic Paginator<Item> actor reused by several screens; cursors kept "
                    + "percent-encoded as on the wire, and the stall check compares that with the server's.",
                ledger: [.fails("P10", because: "a Base64 cursor with padding never equals its percent-encoded form")]),
            .pager(
                CachedQueryResultsAdapter.self, name: "CachedQueryResults", kind: .adopter,
                summary: "Twenty-first-trial filter chips with rows cached per query: going back to a filter shows "
                    + "its cached rows at once until the fresh first page replaces them."),
        ]
    }

    /// The twenty-second trial's pagers, written from the docs alone (see
    /// `Adopters/TwentySecondTrial/README.md`).
    static var twentySecondTrialPagers: [ImplementationUnderCheck] {
        [
            .asyncPager(
                SearchResultsViewModelAdapter.self, name: "SearchResultsViewModel", kind: .adopter,
                summary: "Twenty-second-trial @Observable @MainActor search screen: debounced through a task the "
                    + "trigger awaits, cursors, fills the screen to two pages by itself."),
            .asyncPager(
                FeedControllerAdapter.self, name: "FeedController", kind: .adopter,
                summary: "Twenty-second-trial UIKit-era @MainActor controller with a delegate, completions on the "
                    + "main queue, request tokens, first load from start()."),
            .asyncPager(
                OrdersListStoreAdapter.self, name: "OrdersListStore", kind: .mutant,
                summary: "Twenty-second-trial actor publishing its state through an AsyncStream; a filter change "
                    + "resets everything but hasMore, so after the last page the new filter never loads.",
                ledger: [.fails("P7", because: "a query change after the end of the list leaves hasMore false")]),
        ]
    }

    /// The twenty-third trial's pagers, written from the docs alone (see
    /// `Adopters/TwentyThirdTrial/README.md`).
    static var twentyThirdTrialPagers: [ImplementationUnderCheck] {
        [
            .asyncPager(
                ReducerListFeatureAdapter.self, name: "ReducerListFeature", kind: .adopter,
                summary: "Twenty-third-trial reducer with effects (no library): a pure reduce returning async "
                    + "effects cancellable by ID, run by a @MainActor store; stale results dropped by request ID."),
            .asyncPager(
                InfiniteGridLoaderAdapter.self, name: "InfiniteGridLoader", kind: .adopter,
                summary: "Twenty-third-trial actor holding a token-stamped Task handle: a query change cancels it, "
                    + "checkCancellation after every await, cursors, rows de-duplicated per query."),
            .asyncPager(
                ProductReviewsFeedAdapter.self, name: "ProductReviewsFeed", kind: .mutant,
                summary: "Twenty-third-trial @MainActor review list with a completion-handler service: rows are "
                    + "de-duplicated against the list as it was before the page, so a repeat inside one page shows twice.",
                ledger: [.fails("P2", because: "a review repeated inside one page is shown twice")]),
        ]
    }

    /// The thirty-first trial's pagers, written from the docs alone (see
    /// `Adopters/ThirtyFirstTrial/README.md`).
    static var thirtyFirstTrialPagers: [ImplementationUnderCheck] {
        [
            .asyncPager(
                ItemSearchViewModelAdapter.self, name: "ItemSearchViewModel", kind: .adopter,
                summary: "Thirty-first-trial @MainActor @Observable search over a completion-handler repository "
                    + "(main-queue callbacks), keyset pagination (after the last item's ID), rows cached per query, "
                    + "a UUID token per request; a page that adds nothing ends the list (noProgressLimit 1)."),
            .asyncPager(
                BuggyItemSearchViewModelAdapter.self, name: "BuggyItemSearchViewModel", kind: .mutant,
                summary: "The trial's own buggy copy: a completion is taken while loading for the same query "
                    + "text, instead of by its request's token.",
                ledger: [
                    .fails("P3", because: "a page delivered again while the next one loads is taken as its answer"),
                    .fails("P4", because: "a late page of an earlier visit to the same query is taken"),
                    .fails("P11", because: "a late answer from before the refresh is taken"),
                ]),
        ]
    }

    /// The thirty-third trial's pager, written from the docs alone (see
    /// `Adopters/ThirtyThirdTrial/README.md`).
    static var thirtyThirdTrialPagers: [ImplementationUnderCheck] {
        [
            .asyncPager(
                NotificationInboxViewModelAdapter.self, name: "NotificationInboxViewModel", kind: .adopter,
                summary: "Thirty-third-trial @MainActor @Observable notifications inbox: three filter tabs, cursor "
                    + "pages, one stored load Task cancelled on a tab switch or refresh, a generation counter "
                    + "checked before a page or an error (a cancellation included) touches the state."),
            .asyncPager(
                BuggyNotificationInboxViewModelAdapter.self, name: "BuggyNotificationInboxViewModel", kind: .mutant,
                summary: "The inbox written again from its bug's description: a cancellation error is handled before "
                    + "the check that its load is still current, so the load a tab switch or a refresh cancelled "
                    + "ends the new load's loading state.",
                ledger: [
                    .fails("P8", because: "the cancellation of the old tab's load ends the new tab's loading state"),
                    .fails("P11", because: "the cancellation of the load a refresh cancelled ends the refreshed load"),
                ]),
        ]
    }

    /// The thirty-fourth trial's pager, written from the docs alone (see
    /// `Adopters/ThirtyFourthTrial/README.md`).
    static var thirtyFourthTrialPagers: [ImplementationUnderCheck] {
        [
            .asyncPager(
                CatalogSearchResultsAdapter.self, name: "CatalogSearchResultsController", kind: .adopter,
                summary: "Thirty-fourth-trial UIKit-era search controller: a completion-handler offset/limit API "
                    + "that may answer synchronously, every state change hopped to the main queue, a request "
                    + "number and a cancellable token per load, pages chained from the main queue until five "
                    + "rows are visible, a seen-ID set reset on a query change or refresh."),
            .asyncPager(
                BuggyCatalogSearchResultsAdapter.self, name: "BuggyCatalogSearchResultsController", kind: .mutant,
                summary: "The controller written again from its bug's description by another author (it loads "
                    + "its first page at init): a refresh keeps the set of IDs already shown, so the refreshed "
                    + "first page's rows that were on screen before are dropped as duplicates.",
                ledger: [
                    .fails("P11", because: "the refreshed first page's rows seen before the refresh are dropped")
                ]),
        ]
    }

    /// The thirty-seventh trial's pager, written from the docs alone (see
    /// `Adopters/ThirtySeventhTrial/README.md`).
    static var thirtySeventhTrialPagers: [ImplementationUnderCheck] {
        [
            .asyncPager(
                TeamActivityFeedAdapter<TeamActivityFeedViewModel>.self, name: "TeamActivityFeedViewModel",
                kind: .adopter,
                summary: "Thirty-seventh-trial team activity feed: a @MainActor @Observable cursor pager over a "
                    + "GraphQL-style connection with an all / mentions-only filter; a stored load task cancelled "
                    + "on a filter change or refresh, a request token so only the request in flight writes state, "
                    + "rows de-duplicated by ID across pages, a refresh that keeps the old rows until its first "
                    + "page, an end on an empty page and a stop on a cursor that does not advance."),
            .asyncPager(
                TeamActivityFeedAdapter<BuggyTeamActivityFeedViewModel>.self, name: "BuggyTeamActivityFeedViewModel",
                kind: .mutant,
                summary: "The feed written again from its bug's description by another author: an answer is taken "
                    + "when its filter is the tab selected now, with no request token, so a late answer from an "
                    + "earlier visit to the same tab, or from before a refresh, is applied.",
                ledger: [
                    .fails("P4", because: "a late page from the first visit to a tab is applied on the second visit"),
                    .fails("P5", because: "stale failures under the same tab show an error"),
                    .fails("P11", because: "a late page from before a refresh is appended to the refreshed list"),
                ]),
        ]
    }

    /// The thirty-ninth trial's pager, written from the docs alone (see
    /// `Adopters/ThirtyNinthTrial/README.md`).
    static var thirtyNinthTrialPagers: [ImplementationUnderCheck] {
        [
            .asyncPager(
                InboxThreadsAdapter.self, name: "InboxThreadsViewModel", kind: .adopter,
                summary: "Thirty-ninth-trial mail threads: a @MainActor @Observable page-number pager over folders "
                    + "with a request token; a refresh keeps the old threads until its first page, and a refresh "
                    + "whose own request ends in a cancellation error is abandoned: the list before it, its next "
                    + "page and its end stay, with no error shown."),
        ]
    }
}
