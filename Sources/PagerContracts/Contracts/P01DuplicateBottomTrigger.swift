extension PagerContract {
    /// P1: while a page loads, further bottom triggers start no request; after a response is
    /// accepted, the next trigger starts exactly one, for the next page.
    static let duplicateBottomTrigger = PagerContract("P1") { t in
        let hint = hint("P1")
        let page1 = try await t.firstLoad()
        try await t.expectState(
            \.isLoading, true, named: "the loading state", after: "the first load started")
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

        // A page answered as soon as it is asked for (a cached response) is accepted too.
        let page3 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 3, after: "bottom reached after page 2 arrived",
            hint: "After a response is accepted the next trigger loads the next page, once.")
        try await t.deliver(page3, rows: [7, 8, 9], hasMore: true)
        try await t.expectVisible([1, 2, 3, 4, 5, 6, 7, 8, 9], after: "page 3 arrived at once")
        try t.expectOneRequest(
            try await t.bottomReached(), forPage: 4, after: "bottom reached after page 3 arrived",
            hint: "A response that arrives while the request is being made (a cache) must be "
                + "accepted like any other: mark the request in flight before calling the loader.")
    }
}
