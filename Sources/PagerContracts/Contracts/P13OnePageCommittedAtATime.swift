extension PagerContract {
    /// P13 (recommended): a fill-the-screen trigger commits each page before requesting the
    /// next, and a failure keeps what was committed.
    static let onePageCommittedAtATime = PagerContract("P13", requires: .init(triggers: .fillScreen)) { t in
        let hint = hint("P13")
        let page1 = try t.expectOneRequest(
            try await t.fillScreen(), forPage: 1, after: "fill the screen")
        let afterPage1 = try await t.deliver(page1, rows: [1, 2, 3], hasMore: true, followUps: .returned)
        try await t.expectVisible([1, 2, 3], after: "page 1 of the fill arrived", hint: hint)
        let page2 = try t.expectOneRequest(
            afterPage1, forPage: 2, after: "page 1 of the fill arrived (3 items do not fill a screen)")
        let afterPage2 = try await t.deliver(page2, rows: [4, 5, 6], hasMore: true, followUps: .returned)
        try await t.expectVisible([1, 2, 3, 4, 5, 6], after: "page 2 of the fill arrived", hint: hint)
        let page3 = try t.expectOneRequest(
            afterPage2, forPage: 3, after: "page 2 of the fill arrived (6 items do not fill a screen)")
        try await t.fail(page3, with: .timeout)
        try await t.expectVisible(
            [1, 2, 3, 4, 5, 6], after: "page 3 of the fill timed out",
            hint: "A failure in the middle of a fill keeps the pages already committed.")
        try await t.expectState(\.showsError, true, named: "the error state", after: "page 3 of the fill timed out")
        let retried = try t.expectOneRequest(
            try await t.retry(), forPage: 3, after: "retry after the fill failed",
            hint: "The failed page keeps its position: the retry asks for it again.")
        try await t.deliver(retried, rows: [7, 8, 9], hasMore: true)
        try await t.expectVisible([1, 2, 3, 4, 5, 6, 7, 8, 9], after: "the retried page 3 arrived")
    }
}
