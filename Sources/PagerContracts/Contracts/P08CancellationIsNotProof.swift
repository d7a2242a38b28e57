extension PagerContract {
    /// P8: a cancelled request's completion can still run, and changes nothing.
    static let cancellationIsNotProof = PagerContract("P8") { t in
        let hint = "Cancelling the old request saves work but proves nothing: its completion can "
            + "still run with data or a cancellation error. Check the ticket on every path, the "
            + "cancellation path included."
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
        try await t.fail(a2, with: .cancelled)
        try await t.expectUnchanged(
            since: loadingB2,
            after: "a cancellation error for the cancelled \(a2)", hint: hint)
        try t.expectNoRequest(
            try await t.bottomReached(), after: "bottom reached after the cancellation error",
            because: "page 2 of query B is still in flight", hint: hint)

        let c1 = try await t.firstPageRequest(
            after: try await t.changeQuery(to: "C"), of: "the query change to C")
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
