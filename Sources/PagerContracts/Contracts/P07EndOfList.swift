extension PagerContract {
    /// P7: after the last page, only a query change or refresh starts a request.
    static let endOfList = PagerContract("P7") { t in
        let hint = "Keep hasMore from the accepted response and check it in every load path "
            + "(bottom, retry, explicit load). \"No cursor\" must not mean \"start again\"."
        let page1 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 1, after: "the first bottom trigger")
        try await t.deliver(page1, rows: [1, 2, 3], hasMore: true)
        let page2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached after page 1")
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
        _ = try await t.firstPageRequest(
            after: try await t.changeQuery(to: "B"), of: "the query change to B at the end")
    }
}
