extension PagerContract {
    /// P11: a refresh that reloads from the first page makes earlier requests stale.
    static let refreshIsNewQuery = PagerContract("P11", requires: .init(triggers: .refresh)) { t in
        let hint = "A refresh must start a new generation, exactly like a query change: reset "
            + "the page position and ticket and bump the generation, so that responses to "
            + "requests issued before it fail the ticket check."
        let a1 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 1, after: "the first bottom trigger")
        try await t.deliver(a1, rows: [1, 2, 3], hasMore: true)
        let a2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached after page 1")

        let r1 = try await t.firstPageRequest(after: try await t.refresh(), of: "refresh")
        try await t.deliver(r1, rows: [0, 1, 2], hasMore: true)
        try await t.expectVisible(
            [0, 1, 2], after: "the refreshed first page arrived",
            hint: "The refreshed first page replaces the list.")
        let r2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached after the refresh")
        let loadingR2 = await t.state()
        try await t.deliver(a2, rows: [4, 5, 6], hasMore: false)
        try await t.expectUnchanged(
            since: loadingR2,
            after: "the late answer to \(a2), issued before the refresh, while the new page 2 loads",
            hint: hint)

        let s1 = try await t.firstPageRequest(after: try await t.refresh(), of: "a second refresh")
        let refreshing = await t.state()
        try await t.fail(r2, with: .timeout)
        try await t.expectUnchanged(
            since: refreshing, after: "a timeout of \(r2), issued before the second refresh",
            hint: hint)
        try await t.deliver(s1, rows: [0, 1, 2], hasMore: true)
        try await t.expectVisible([0, 1, 2], after: "the second refresh's first page arrived")
        try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached after the second refresh")
    }
}
