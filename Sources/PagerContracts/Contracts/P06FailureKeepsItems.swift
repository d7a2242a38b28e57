extension PagerContract {
    /// P6: a failure keeps the items, shows an error, and a retry asks for the same page.
    static let failureKeepsItems = PagerContract("P6") { t in
        let samePage = hint("P6")
        try await t.loadFirstPage(rows: [1, 2, 3])
        let page2 = try await t.requestNextPage(2, after: "bottom reached after page 1")
        try await t.fail(page2, with: .timeout)
        try await t.expectVisible(
            [1, 2, 3], after: "page 2 timed out",
            hint: "A timeout never empties the list: keep the items and show the error.")
        try await t.expectState(\.isLoading, false, named: "the loading state", after: "page 2 timed out")
        try await t.expectState(\.showsError, true, named: "the error state", after: "page 2 timed out")

        let duringError = try await t.bottomReached()
        if !duringError.isEmpty {
            let again = try t.expectOneRequest(
                duringError, forPage: 2, after: "bottom reached while the error is shown",
                hint: samePage)
            try await t.fail(again, with: .serverError(status: 500))
            try await t.expectVisible([1, 2, 3], after: "page 2 failed again")
        }
        let retried = try t.expectOneRequest(
            try await t.retry(), forPage: 2, after: "retry",
            hint: samePage + " Map the adapter's retry() to your pager's retry action.")
        try await t.deliver(retried, rows: [4, 5, 6], hasMore: true)
        try await t.expectVisible([1, 2, 3, 4, 5, 6], after: "the retried page 2 arrived")
        try await t.expectState(
            \.showsError, false, named: "the error state", after: "the retried page 2 arrived")
        try t.expectOneRequest(
            try await t.bottomReached(), forPage: 3, after: "bottom reached after the retry succeeded")
    }
}
