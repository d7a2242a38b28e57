extension PagerContract {
    /// P9: each request carries the cursor of the last accepted response, never a stale or
    /// duplicate one.
    static let cursorCarriedByTicket = PagerContract("P9", requires: .init(cursors: true)) { t in
        let hint = hint("P9")
        try await t.loadFirstPage(rows: [1, 2, 3])
        let a2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached after page 1", hint: hint)
        try await t.acceptPage(a2, rows: [4, 5, 6], visible: [1, 2, 3, 4, 5, 6], after: "page 2 arrived")
        let a3 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 3, after: "bottom reached after page 2", hint: hint)

        let b1 = try await t.newGeneration(query: "B", rule: "P9")
        try await t.deliver(a3, rows: [7, 8], hasMore: true, cursor: .fixed("A-stale-cursor"))
        try await t.deliver(b1, rows: [101, 102], hasMore: true)
        let b2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2,
            after: "bottom reached after a stale response carried a cursor", hint: hint)
        try await t.deliver(b2, rows: [103, 104], hasMore: true)
        if t.canDeliverTwice {
            try await t.deliver(b1, rows: [101, 102], hasMore: true)
        }
        let b3 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 3,
            after: t.canDeliverTwice
                ? "bottom reached after \(b1)'s response was delivered again"
                : "bottom reached after page 2", hint: hint)

        // A stale success with nothing else in flight: nothing overwrites a cursor it stored
        // before its ticket check.
        let c1 = try await t.newGeneration(query: "C", rule: "P9")
        try await t.deliver(c1, rows: [201, 202], hasMore: true)
        try await t.deliver(b3, rows: [105, 106], hasMore: true, cursor: .fixed("B-stale-cursor"))
        let c2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2,
            after: "bottom reached after a stale response carried a cursor while nothing was in flight",
            hint: hint)

        guard t.capabilities.triggers.contains(.refresh) else { return }
        // A server hands out the same cursors again after a refresh (they encode a position,
        // not a session): the refreshed first page's cursor is the one page 1 returned before,
        // and the next request carries it. Cursors remembered from before the refresh (a cycle
        // check that a refresh does not reset) must not stop it.
        try await t.deliver(c2, rows: [203, 204], hasMore: true)
        let refreshed = try await t.refreshList(rule: "P9")
        guard case .cursor(let repeated?) = c2.position else { return }
        // A pager that fills the screen chains the next request by itself: that request is
        // the one to judge (the twenty-second trial's `SearchResultsViewModel` carried the
        // repeated cursor there, and its bottom trigger then rightly asked for a later page).
        let chained = try await t.deliver(
            refreshed, rows: [201, 202], hasMore: true, cursor: .fixed(repeated), followUps: .returned)
        let returned = "the refreshed first page returned the cursor \"\(repeated)\" that page 1 returned before the refresh"
        try t.expectOneRequest(
            chained.isEmpty ? try await t.bottomReached() : chained, forPage: 2,
            after: chained.isEmpty ? "bottom reached after \(returned)" : "\(returned) (the pager chained a request by itself)",
            hint: hint + " A refresh starts a new generation: forget the cursors seen before it.")
    }
}
