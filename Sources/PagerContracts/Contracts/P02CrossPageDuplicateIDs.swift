extension PagerContract {
    /// P2: an ID already visible is not shown again; the rest keep the server's order.
    static let crossPageDuplicateIDs = PagerContract("P2") { t in
        let hint = hint("P2")
        try await t.loadFirstPage(rows: [1, 2, 3])
        let page2 = try await t.requestNextPage(2, after: "bottom reached after page 1")
        try await t.deliver(page2, rows: [3, 4, 2, 5, 4, 6], hasMore: true)
        try await t.expectVisible(
            [1, 2, 3, 4, 5, 6],
            after: "page 2 arrived repeating 3 and 2 from page 1 and 4 within itself", hint: hint)

        let page3 = try await t.requestNextPage(3, after: "bottom reached after page 2")
        try await t.deliver(page3, rows: [9, 1, 8, 7], hasMore: true)
        try await t.expectVisible(
            [1, 2, 3, 4, 5, 6, 9, 8, 7], after: "page 3 arrived repeating 1, in descending order",
            hint: hint)

        // A repeat of a row far up the list: a pager that checks only the last rows it shows
        // (the nineteenth trial's `ArticleFeed` compared each page with its last 50 rows, "where
        // offset drift can reach") shows it twice.
        t.section("a repeat of a row far up the list")
        let longPage = Array(100..<100 + farBackDistance)
        let page4 = try await t.requestNextPage(4, after: "bottom reached after page 3")
        try await t.deliver(page4, rows: longPage, hasMore: true)
        let shown = [1, 2, 3, 4, 5, 6, 9, 8, 7] + longPage
        try await t.expectVisible(shown, after: "page 4 arrived with \(farBackDistance) new rows", hint: hint)
        let page5 = try await t.requestNextPage(5, after: "bottom reached after page 4")
        try await t.deliver(page5, rows: [500, 1, 501], hasMore: true)
        try await t.expectVisible(
            shown + [500, 501],
            after: "page 5 arrived repeating 1, the first row, \(shown.count) rows up the list", hint: hint)
    }

    /// How many new rows page 4 of P2 brings before page 5 repeats the list's first row: more
    /// than any window a pager could mean by "recent rows" (a few pages of 25 to 100).
    static let farBackDistance = 300
}
