extension PagerContract {
    /// P11: a refresh that reloads from the first page makes earlier requests stale.
    static let refreshIsNewQuery = PagerContract("P11", requires: .init(triggers: .refresh)) { t in
        let hint = hint("P11")
        try await t.loadFirstPage(rows: [1, 2, 3])
        let a2 = try await t.requestNextPage(2, after: "bottom reached after page 1")

        let r1 = try await t.refreshList()
        try await t.deliver(r1, rows: [0, 1, 2], hasMore: true)
        try await t.expectVisible(
            [0, 1, 2], after: "the refreshed first page arrived",
            hint: "The refreshed first page replaces the list.")
        let r2 = try await t.requestNextPage(2, after: "bottom reached after the refresh")
        let loadingR2 = await t.state()
        try await t.deliver(a2, rows: [4, 5, 6], hasMore: false)
        try await t.expectUnchanged(
            since: loadingR2,
            after: "the late answer to \(a2), issued before the refresh, while the new page 2 loads",
            hint: hint)

        let s1 = try await t.refreshList("a second refresh")
        let refreshing = await t.state()
        try await t.fail(r2, with: .timeout)
        try await t.expectUnchanged(
            since: refreshing, after: "a timeout of \(r2), issued before the second refresh",
            hint: hint)
        try await t.deliver(s1, rows: [0, 1, 2], hasMore: true)
        try await t.expectVisible([0, 1, 2], after: "the second refresh's first page arrived")
        let s2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached after the second refresh")

        // A stale success with nothing else in flight.
        let u1 = try await t.refreshList("a third refresh")
        try await t.acceptPage(
            u1, rows: [0, 1, 2], visible: [0, 1, 2], after: "the third refresh's first page arrived",
            rule: "P11")
        let u2 = try await t.expectSettledStaleAnswerChangesNothing(
            s2, rows: [3, 4],
            after: "the late answer to \(s2), issued before the third refresh, once the refreshed "
                + "first page was accepted and nothing is in flight",
            then: "bottom reached after that stale answer", hint: hint)

        // The request a refresh cancelled completes with a cancellation error while the
        // refreshed first page loads: P8's case, after a refresh rather than a query change
        // (a refresh and a filter change are often two call sites, and the source document asks
        // that both go through the same ticket check).
        let v1 = try await t.refreshList("a fourth refresh")
        let refreshingAgain = await t.state()
        try await t.fail(u2, with: .cancelled)
        try await t.expectUnchanged(
            since: refreshingAgain, after: "a cancellation error for \(u2), cancelled by the fourth refresh",
            hint: "Cancelling the old request on a refresh proves nothing: its completion can still run "
                + "with a cancellation error. Check the ticket on the refresh's path as on a query "
                + "change's, the cancellation path included.")
        try await t.deliver(v1, rows: [0, 1, 2], hasMore: true)
        try await t.expectVisible([0, 1, 2], after: "the fourth refresh's first page arrived")
    }
}
