/// Bug: stores every response's cursor, accepted or not, so a stale or duplicate response
/// moves the cursor.
struct CursorPagerThatTakesAnyCursor: MutantCursorPagerAdapter {
    static let bug = CursorPagerBug.takesCursorFromAnyResponse
    var pager = BuggyCursorPager(bug: bug)
}

/// Bug: no check that the cursor advanced, so a stalled cursor loads the same page forever.
struct CursorPagerWithoutStallCheck: MutantCursorPagerAdapter {
    static let bug = CursorPagerBug.noStallCheck
    var pager = BuggyCursorPager(bug: bug)
}

/// Bug: catches a repeated cursor only when it equals the one just requested (Android
/// Paging 3's same-key check), missing a cycle A, B, A.
struct CursorPagerWithoutCycleCheck: MutantCursorPagerAdapter {
    static let bug = CursorPagerBug.noCycleCheck
    var pager = BuggyCursorPager(bug: bug)
}

/// Bug: "no cursor" means "start again", so the end of the list reloads page 1.
struct CursorPagerThatRestartsAfterTheEnd: MutantCursorPagerAdapter {
    static let bug = CursorPagerBug.restartsAfterTheEnd
    var pager = BuggyCursorPager(bug: bug)
}
