extension PagerContract {
    /// P1: while a page loads, further bottom triggers start no request.
    static let duplicateBottomTrigger = PagerContract("P1") { t in
        let hint = "Set the in-flight ticket before the request starts and ignore (or join) the "
            + "trigger while it is set. Cancelling the running load and starting the same page "
            + "again is two requests for one page."
        let page1 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 1, after: "the first bottom trigger")
        try await t.expectState(
            \.isLoading, true, named: "the loading state", after: "the first bottom trigger")
        for attempt in 1...2 {
            try t.expectNoRequest(
                try await t.bottomReached(), after: "bottom reached again (\(attempt))",
                because: "page 1 is still in flight", hint: hint)
        }
        try await t.expectState(
            \.isLoading, true, named: "the loading state", after: "the duplicate bottom triggers")

        try await t.deliver(page1, rows: [1, 2, 3], hasMore: true)
        try await t.expectVisible([1, 2, 3], after: "page 1 arrived")
        try await t.expectState(\.isLoading, false, named: "the loading state", after: "page 1 arrived")

        let page2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2, after: "bottom reached after page 1 arrived",
            hint: "After a response is accepted the next trigger loads the next page, once.")
        try t.expectNoRequest(
            try await t.bottomReached(), after: "bottom reached while page 2 loads",
            because: "page 2 is still in flight", hint: hint)
        try await t.deliver(page2, rows: [4, 5, 6], hasMore: true)
        try await t.expectVisible([1, 2, 3, 4, 5, 6], after: "page 2 arrived")
    }
}
