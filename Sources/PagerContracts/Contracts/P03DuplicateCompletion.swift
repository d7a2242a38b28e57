extension PagerContract {
    /// P3: a response delivered twice is accepted once.
    static let duplicateCompletion = PagerContract("P3", requires: .init(redelivery: true)) { t in
        let hint = hint("P3")
        try await t.loadFirstPage(rows: [1, 2, 3])
        let page2 = try await t.requestNextPage(2, after: "bottom reached after page 1")
        try await t.acceptPage(page2, rows: [4, 5, 6], visible: [1, 2, 3, 4, 5, 6], after: "page 2 arrived")
        let accepted = await t.state()
        try await t.deliver(page2, rows: [4, 5, 6], hasMore: true)
        try await t.expectUnchanged(
            since: accepted, after: "a second delivery of the same response to \(page2)",
            hint: hint)
        let page3 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 3,
            after: "bottom reached after page 2 was delivered twice",
            hint: "The next page position must advance once per request, not once per delivery.")

        try await t.expectIgnoredWhileLoading("page 3")
        let loading = await t.state()
        try await t.deliver(page2, rows: [4, 5, 6], hasMore: true)
        try await t.expectUnchanged(
            since: loading, after: "a third delivery for \(page2) while page 3 loads", hint: hint)
        try t.expectNoRequest(
            try await t.bottomReached(), after: "bottom reached after that delivery",
            because: "page 3 is still in flight", hint: hint)

        // The same completion runs once more, now with an error: a client's timeout timer that
        // nothing cancelled when the answer came first, a retrying interceptor, a task whose
        // delegate and completion both report. The request was answered: the error is not news
        // (the eighteenth trial's `CommentThread` matched failures by generation only, showed
        // an error over a healthy list and re-requested page 3).
        try await t.fail(page2, with: .timeout)
        try await t.expectUnchanged(
            since: loading, after: "\(page2)'s completion ran again with a timeout while page 3 loads",
            hint: PagerContract.failureAfterAnswerHint)
        try await t.deliver(page3, rows: [7, 8, 9], hasMore: true)
        try await t.expectVisible([1, 2, 3, 4, 5, 6, 7, 8, 9], after: "page 3 arrived")
        let idle = await t.state()
        try await t.fail(page3, with: .timeout)
        try await t.expectUnchanged(
            since: idle, after: "\(page3)'s completion ran again with a timeout, nothing in flight",
            hint: PagerContract.failureAfterAnswerHint)
        try t.expectOneRequest(
            try await t.bottomReached(), forPage: 4, after: "bottom reached after page 3")
    }

    private static let failureAfterAnswerHint =
        "Match a failure to its request as you match a response (the ticket or token of the request in "
        + "flight), not by query or generation alone: a request already answered has no failure left to show."
}
