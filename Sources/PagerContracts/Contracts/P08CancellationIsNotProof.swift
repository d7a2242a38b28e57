extension PagerContract {
    /// P8: a cancelled request's completion can still run, and changes nothing.
    static let cancellationIsNotProof = PagerContract("P8", requires: .init(queryChange: true)) { t in
        let hint = hint("P8")
        let (a2, b2) = try await t.loadNextPageAfterStaleRequest()
        try await t.expectIgnoredWhileLoading("page 2 of query B")
        let loadingB2 = await t.state()
        try await t.fail(a2, with: .cancelled)
        try await t.expectUnchanged(
            since: loadingB2,
            after: "a cancellation error for the cancelled \(a2)", hint: hint)
        try await t.expectNoRequestOnBottomReached(
            after: "the cancellation error", because: "page 2 of query B is still in flight", hint: hint)

        let c1 = try await t.switchQuery(to: "C")
        let loadingC1 = await t.state()
        try await t.deliver(b2, rows: [103, 104], hasMore: true)
        try await t.expectUnchanged(
            since: loadingC1, after: "data arriving anyway for the cancelled \(b2)",
            hint: hint)
        try await t.deliver(c1, rows: [201, 202], hasMore: true)
        try await t.expectVisible([201, 202], after: "query C's first page arrived")
        try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached on query C")
    }
}
