extension PagerContract {
    /// P5: a failure of an earlier query's request shows nothing and blocks nothing.
    static let staleFailure = PagerContract("P5") { t in
        let hint = "Check the failed request's ticket before touching the loading or error "
            + "state: only the current request's failure belongs to the current query."
        let a1 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 1, after: "the first bottom trigger")
        try await t.deliver(a1, rows: [1, 2, 3], hasMore: true)
        let a2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached on query A")

        let b1 = try await t.firstPageRequest(
            after: try await t.changeQuery(to: "B"), of: "the query change to B")
        let waiting = await t.state()
        try await t.fail(a2, with: .timeout)
        try await t.expectUnchanged(
            since: waiting, after: "\(a2) of query A timed out while B's first page loads",
            hint: hint)
        try t.expectNoRequest(
            try await t.bottomReached(), after: "bottom reached after the stale failure",
            because: "query B's first page is still in flight", hint: hint)
        try await t.deliver(b1, rows: [101, 102], hasMore: true)
        try await t.expectVisible([101, 102], after: "query B's first page arrived")
        let b2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached on query B")

        let c1 = try await t.firstPageRequest(
            after: try await t.changeQuery(to: "C"), of: "the query change to C")
        try await t.deliver(c1, rows: [201, 202], hasMore: true)
        let loaded = await t.state()
        try await t.fail(b2, with: .serverError(status: 503))
        try await t.expectUnchanged(
            since: loaded, after: "\(b2) of query B failed with 503 after C's first page",
            hint: hint)
        try await t.expectState(
            \.showsError, false, named: "the error state", after: "the stale failure", hint: hint)
        try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2,
            after: "bottom reached on query C after the stale failure",
            hint: "A stale failure must not block loading for the current query.")
    }
}
