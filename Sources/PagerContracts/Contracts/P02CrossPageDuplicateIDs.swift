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
    }
}
