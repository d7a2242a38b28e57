extension PagerContract {
    /// P4: after a query change, a response to an earlier query's request changes nothing.
    static let lateStaleResponse = PagerContract("P4") { t in
        let hint = "Compare the response's whole ticket (generation and page, or cursor) with the "
            + "one in flight before writing anything: page 2 of the old query has the same page "
            + "number as page 2 of the new one, and cancelling the old request is not enough."
        let a1 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 1, after: "the first bottom trigger")
        try await t.deliver(a1, rows: [1, 2, 3], hasMore: true)
        let a2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached on query A")

        let b1 = try await t.firstPageRequest(
            after: try await t.changeQuery(to: "B"), of: "the query change to B")
        try await t.deliver(b1, rows: [101, 102], hasMore: true)
        try await t.expectVisible([101, 102], after: "query B's first page arrived")
        let b2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached on query B")
        let loadingB2 = await t.state()
        try await t.deliver(a2, rows: [103, 104], hasMore: false)
        try await t.expectUnchanged(
            since: loadingB2,
            after: "the late answer to \(a2), saying hasMore false, while page 2 of B loads",
            hint: hint)

        let c1 = try await t.firstPageRequest(
            after: try await t.changeQuery(to: "C"), of: "the query change to C")
        let loadingC1 = await t.state()
        try await t.deliver(b2, rows: [201, 202], hasMore: false)
        try await t.expectUnchanged(
            since: loadingC1,
            after: "the late answer to \(b2), with exactly C's items and hasMore false, before "
                + "C's first page", hint: hint)
        try await t.deliver(c1, rows: [201, 202], hasMore: true)
        try await t.expectVisible([201, 202], after: "query C's first page arrived")
        try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2,
            after: "bottom reached on query C after the stale responses",
            hint: "A stale response must not end the list, advance the page or change the cursor.")
    }
}
