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
        if t.capabilities.changesQuery {
            _ = try await t.switchQuery(to: "B", rule: t.usesCursors ? "P9" : "P7")
        } else if t.capabilities.triggers.contains(.refresh) {
            _ = try await t.refreshList("refresh at the end", rule: "P7")
        }
    }
}
