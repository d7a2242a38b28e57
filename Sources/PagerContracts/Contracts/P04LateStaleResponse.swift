extension PagerContract {
    /// P4: after a query change, a response to an earlier query's request changes nothing.
    static let lateStaleResponse = PagerContract("P4") { t in
        let hint = "Compare the response's ticket (generation and page, or cursor) with the "
            + "current one before writing anything; cancelling the old request is not enough."
        let a1 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 1, after: "the first bottom trigger")
        try await t.deliver(a1, rows: [1, 2, 3], hasMore: true)
        let a2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached on query A")

        let b1 = try await t.firstPageRequest(
            after: try await t.changeQuery(to: "B"), of: "the query change to B")
        let beforeFirstPage = await t.state()
        try await t.deliver(a2, rows: [101, 102], hasMore: false)
        try await t.expectUnchanged(
            since: beforeFirstPage,
            after: "\(a2) of query A answered with query B's items and hasMore false, before "
                + "B's first page", hint: hint)
        try await t.deliver(b1, rows: [101, 102], hasMore: true)
        try await t.expectVisible([101, 102], after: "query B's first page arrived")
        let b2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached on query B")

        let c1 = try await t.firstPageRequest(
            after: try await t.changeQuery(to: "C"), of: "the query change to C")
        try await t.deliver(c1, rows: [201, 202], hasMore: true)
        try await t.expectVisible([201, 202], after: "query C's first page arrived")
        let afterFirstPage = await t.state()
        try await t.deliver(b2, rows: [103, 104], hasMore: false)
        try await t.expectUnchanged(
            since: afterFirstPage,
            after: "\(b2) of query B answered late, with hasMore false, after C's first page",
            hint: hint)
        try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2,
            after: "bottom reached on query C after the stale response",
            hint: "A stale response must not end the list, advance the page or change the cursor.")
    }
}
