extension PagerContract {
    /// P5: a failure of an earlier query's request shows nothing and blocks nothing.
    static let staleFailure = PagerContract("P5", requires: .init(queryChange: true)) { t in
        let hint = hint("P5")
        let (a2, b2) = try await t.loadNextPageAfterStaleRequest()
        try await t.expectIgnoredWhileLoading("page 2 of query B")
        let loadingB2 = await t.state()
        try await t.fail(a2, with: .timeout)
        try await t.expectUnchanged(
            since: loadingB2, after: "a timeout of \(a2) while page 2 of B loads",
            hint: hint)
        try await t.expectNoRequestOnBottomReached(
            after: "the stale failure", because: "page 2 of query B is still in flight", hint: hint)

        let c1 = try await t.switchQuery(to: "C")
        let loadingC1 = await t.state()
        try await t.fail(b2, with: .serverError(status: 503))
        try await t.expectUnchanged(
            since: loadingC1, after: "a 503 failure of \(b2) before C's first page",
            hint: hint)
        try await t.deliver(c1, rows: [201, 202], hasMore: true)
        try await t.expectVisible([201, 202], after: "query C's first page arrived")
        try await t.expectState(
            \.showsError, false, named: "the error state", after: "the stale failures", hint: hint)
        let c2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2,
            after: "bottom reached on query C after the stale failures",
            hint: "A stale failure must not block loading for the current query.")

        // The failure comes while its query is current (the error shows: P6's part), and then
        // the query changes: from then on it is an earlier query's failure. Every stale failure
        // above arrives after the change; the eighteenth trial's `OrderHistory` reset
        // everything on a filter switch but the error, which its bottom trigger respects, so
        // the new filter never loaded.
        t.section("a failure shown for query C, then the query changes")
        try await t.fail(c2, with: .timeout)
        let afterChange = try await t.changeQuery(to: "D")
        let d1 = try t.expectOneRequest(
            afterChange.isEmpty ? try await t.bottomReached() : afterChange, forPage: 1,
            after: afterChange.isEmpty
                ? "bottom reached on query D (the query changed while C's failure showed)" : "the query change to D",
            hint: PagerContract.staleErrorHint)
        try await t.deliver(d1, rows: [301, 302], hasMore: true)
        try await t.expectVisible([301, 302], after: "query D's first page arrived")
        try await t.expectState(
            \.showsError, false, named: "the error state", after: "query D's first page arrived",
            hint: PagerContract.staleErrorHint)
        let d2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached on query D", hint: PagerContract.staleErrorHint)

        // Stale failures in a row, after the current query's first page and with nothing of it
        // in flight: a pager that counts failures (a retry budget, a circuit breaker) before
        // its ticket check stops loading on failures that say nothing about the current query
        // (the twenty-first trial's `ListMapCoordinator` paused after three, as a map that
        // searches on every pan does). Requests a waiting query change already answered are
        // not failed again (a pager whose query change waits leaves none open: skipped).
        t.section("three earlier queries' requests fail in a row after the current query's first page")
        let e1 = try await t.switchQuery(to: "E")
        guard t.answerCount(of: d2) == 0 else {
            t.skipCheck(
                "three stale failures in a row",
                because: "the query change waits for the earlier request to finish, so no earlier "
                    + "query's request stays open")
            return
        }
        let f1 = try await t.switchQuery(to: "F")
        let g1 = try await t.switchQuery(to: "G")
        try await t.acceptPage(
            g1, rows: [401, 402], visible: [401, 402], after: "query G's first page arrived", rule: "P4")
        let settled = await t.state()
        let open = [d2, e1, f1].filter { t.answerCount(of: $0) == 0 }
        for stale in open { try await t.fail(stale, with: .timeout) }
        try await t.expectUnchanged(
            since: settled,
            after: "timeouts of " + open.map { "\($0)" }.joined(separator: ", ")
                + ", issued under earlier queries, with nothing in flight",
            hint: Self.staleFailureCountHint)
        try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached on query G after those stale failures",
            hint: Self.staleFailureCountHint)
    }

    private static let staleFailureCountHint =
        "Count failures (for a retry budget, a backoff or a circuit breaker) only after the ticket check: "
            + "a failure of an earlier query's request says nothing about the current one."

    private static let staleErrorHint =
        "A query change starts over: reset the error state with the list, the position and the loading "
            + "state. An error the earlier query showed must not show, or stop a bottom trigger, under the new one."
}
