/// Bug: a second bottom trigger cancels the running load and starts the same page again.
struct PagerThatRestartsWhileLoading: MutantPagerAdapter {
    static let bug = PagerBug.restartsWhileInFlight
    var pager = BuggyPager(bug: bug)
}

/// Bug: de-duplicates through a `Set` and sorts, losing the server's order.
struct PagerThatSortsAfterDeduplicating: MutantPagerAdapter {
    static let bug = PagerBug.sortsAfterDeduplicating
    var pager = BuggyPager(bug: bug)
}

/// Bug: checks only the generation, so a completion handler that runs twice advances twice.
struct PagerThatAcceptsRepeatedCompletions: MutantPagerAdapter {
    static let bug = PagerBug.acceptsRepeatedCompletion
    var pager = BuggyPager(bug: bug)
}

/// Bug: the ticket is only the page number, so page 2 of the old query passes for page 2 of
/// the new one.
struct PagerWhoseTicketIsThePageNumber: MutantPagerAdapter {
    static let bug = PagerBug.ticketIsThePageNumber
    var pager = BuggyPager(bug: bug)
}

/// Bug: failures skip the ticket check, so an old query's timeout shows an error.
struct PagerThatShowsStaleFailures: MutantPagerAdapter {
    static let bug = PagerBug.showsStaleFailures
    var pager = BuggyPager(bug: bug)
}

/// Bug: a failure advances the page, so retry skips the failed page.
struct PagerThatAdvancesOnFailure: MutantPagerAdapter {
    static let bug = PagerBug.advancesOnFailure
    var pager = BuggyPager(bug: bug)
}

/// Bug: `start()` ignores `hasMore`, so bottom triggers keep loading after the last page.
struct PagerThatForgetsTheEnd: MutantPagerAdapter {
    static let bug = PagerBug.forgetsTheEnd
    var pager = BuggyPager(bug: bug)
}

/// Bug: a cancellation error clears loading before the ticket check.
struct PagerThatTreatsCancellationAsCurrent: MutantPagerAdapter {
    static let bug = PagerBug.treatsCancellationAsCurrent
    var pager = BuggyPager(bug: bug)
}

/// Bug: refresh resets the page but not the generation.
struct PagerThatKeepsGenerationOnRefresh: MutantPagerAdapter {
    static let bug = PagerBug.keepsGenerationOnRefresh
    var pager = BuggyPager(bug: bug)
}

/// Bug: no bound on pages that add nothing: loads chain forever.
struct PagerThatChainsEmptyPages: MutantPagerAdapter {
    static let bug = PagerBug.chainsEmptyPagesForever
    var pager = BuggyPager(bug: bug)
}

/// Bug: a fill buffers its pages and commits them at the end; a failure loses them.
struct PagerThatCommitsFillAtTheEnd: MutantPagerAdapter {
    static let bug = PagerBug.commitsFillAtTheEnd
    var pager = BuggyPager(bug: bug)
}
