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
        try await t.deliver(page3, rows: [7, 8, 9], hasMore: true)
        try await t.expectVisible([1, 2, 3, 4, 5, 6, 7, 8, 9], after: "page 3 arrived")
        try t.expectOneRequest(
            try await t.bottomReached(), forPage: 4, after: "bottom reached after page 3")
    }
}
