extension PagerContract {
    /// P5: a failure of an earlier query's request shows nothing and blocks nothing.
    static let staleFailure = PagerContract("P5") { t in
        let hint = "Check the failed request's whole ticket before touching the loading or error "
            + "state: only the current request's failure belongs to the current query."
        let a1 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 1, after: "the first bottom trigger")
        try await t.deliver(a1, rows: [1, 2, 3], hasMore: true)
        let a2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached on query A")

        let b1 = try await t.firstPageRequest(
            after: try await t.changeQuery(to: "B"), of: "the query change to B")
        try await t.deliver(b1, rows: [101, 102], hasMore: true)
        let b2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached on query B")
        let loadingB2 = await t.state()
        try await t.fail(a2, with: .timeout)
        try await t.expectUnchanged(
            since: loadingB2, after: "a timeout of \(a2) while page 2 of B loads",
            hint: hint)
        try t.expectNoRequest(
            try await t.bottomReached(), after: "bottom reached after the stale failure",
            because: "page 2 of query B is still in flight", hint: hint)

        let c1 = try await t.firstPageRequest(
            after: try await t.changeQuery(to: "C"), of: "the query change to C")
        let loadingC1 = await t.state()
        try await t.fail(b2, with: .serverError(status: 503))
        try await t.expectUnchanged(
            since: loadingC1, after: "a 503 failure of \(b2) before C's first page",
            hint: hint)
        try await t.deliver(c1, rows: [201, 202], hasMore: true)
        try await t.expectVisible([201, 202], after: "query C's first page arrived")
        try await t.expectState(
            \.showsError, false, named: "the error state", after: "the stale failures", hint: hint)
        try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2,
            after: "bottom reached on query C after the stale failures",
            hint: "A stale failure must not block loading for the current query.")
    }
}
