extension PagerContract {
    /// P7: after the last page, only a query change or refresh starts a request.
    static let endOfList = PagerContract("P7") { t in
        let hint = hint("P7")
        try await t.loadFirstPage(rows: [1, 2, 3])
        let page2 = try await t.requestNextPage(2, after: "bottom reached after page 1")
        try await t.deliver(page2, rows: [4, 5, 6], hasMore: false)
        try await t.expectState(\.hasMore, false, named: "hasMore", after: "the last page arrived")
        try await t.expectState(\.isLoading, false, named: "the loading state", after: "the last page arrived")

        for attempt in 1...2 {
            try t.expectNoRequest(
                try await t.bottomReached(), after: "bottom reached at the end (\(attempt))",
                because: "the accepted response said there are no more pages", hint: hint)
        }
        try t.expectNoRequest(
            try await t.retry(), after: "retry at the end",
            because: "the accepted response said there are no more pages", hint: hint)
        try await t.expectVisible(
            [1, 2, 3, 4, 5, 6], after: "the triggers at the end of the list",
            hint: "A finished list keeps its items visible.")
        let again: PageRequestRecord
        if t.capabilities.changesQuery {
            again = try await t.switchQuery(to: "B", rule: t.usesCursors ? "P9" : "P7")
        } else if t.capabilities.triggers.contains(.refresh) {
            again = try await t.refreshList("refresh at the end", rule: "P7")
        } else {
            return t.skipCheck(
                "a last page that adds nothing", because: "the adapter declares no query change and no refresh")
        }

        // A last page that adds nothing (an empty page, as an offset API serves past its end):
        // it still ends the list. A pager that skips a page without new rows before it reads
        // `hasMore` (the nineteenth trial's `SavedPosts`, "skip the identical snapshot apply")
        // asks for another page. The page is empty rather than a repeat, so that a pager that
        // mishandles repeats is judged by P2 alone.
        t.section("an empty last page")
        try await t.deliver(again, rows: [201, 202], hasMore: true)
        try await t.expectVisible([201, 202], after: "the first page after the end arrived")
        let last = try await t.requestNextPage(2, after: "bottom reached after that page")
        try await t.deliver(last, rows: [], hasMore: false)
        try await t.expectState(
            \.hasMore, false, named: "hasMore", after: "an empty last page arrived",
            hint: PagerContract.emptyLastPageHint)
        try t.expectNoRequest(
            try await t.bottomReached(), after: "bottom reached after an empty last page",
            because: "the accepted response said there are no more pages", hint: PagerContract.emptyLastPageHint)
    }

    private static let emptyLastPageHint =
        "Read hasMore from every accepted page, also one whose rows were all duplicates or that was empty: "
            + "the end of the list does not depend on what the page added."
}
