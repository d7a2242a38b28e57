extension PagerContract {
    /// P9: each request carries the cursor of the last accepted response, never a stale or
    /// duplicate one.
    static let cursorCarriedByTicket = PagerContract("P9", requires: .init(cursors: true)) { t in
        let hint = "Put the requested cursor in the ticket and store the response's cursor only "
            + "when the response is accepted; reset it to none on every query change or refresh."
        let a1 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 1, after: "the first bottom trigger")
        try await t.deliver(a1, rows: [1, 2, 3], hasMore: true)
        let a2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached after page 1", hint: hint)
        try await t.deliver(a2, rows: [4, 5, 6], hasMore: true)
        let a3 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 3, after: "bottom reached after page 2", hint: hint)

        let b1 = try await t.firstPageRequest(
            after: try await t.changeQuery(to: "B"), of: "the query change to B")
        try await t.deliver(a3, rows: [7, 8], hasMore: true, cursor: .fixed("A-stale-cursor"))
        try await t.deliver(b1, rows: [101, 102], hasMore: true)
        let b2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2,
            after: "bottom reached on query B after a stale response carried a cursor", hint: hint)
        try await t.deliver(b2, rows: [103, 104], hasMore: true)
        if t.canDeliverTwice {
            try await t.deliver(b1, rows: [101, 102], hasMore: true)
        }
        try t.expectOneRequest(
            try await t.bottomReached(), forPage: 3,
            after: t.canDeliverTwice
                ? "bottom reached after \(b1)'s response was delivered again"
                : "bottom reached after page 2 of B", hint: hint)

        if t.capabilities.triggers.contains(.refresh) {
            _ = try await t.firstPageRequest(after: try await t.refresh(), of: "refresh")
        }
    }
}
