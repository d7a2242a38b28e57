extension PagerContract {
    /// P12 (recommended): pages that add nothing new stop automatic loading after a bound.
    static let noProgressStall = PagerContract("P12") { t in
        let limit = t.capabilities.noProgressLimit
        let hint = "Count accepted pages in a row that add no new visible item while the server "
            + "says more; at the declared bound (\(limit)) stop loading automatically and report "
            + "a stall, instead of chaining loads forever with the bottom sentinel on screen."
        let page1 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 1, after: "the first bottom trigger")
        try await t.deliver(page1, rows: [1, 2, 3], hasMore: true)
        for page in 2...(limit + 1) {
            let started = try await t.bottomReached()
            if started.isEmpty && page > 2 {
                t.section("loading stopped after \(page - 2) page(s) that added nothing")
                return
            }
            let request = try t.expectOneRequest(
                started, forPage: page, after: "bottom reached (page \(page - 1) added nothing new)")
            try await t.deliver(request, rows: [1, 2, 3], hasMore: true)
        }
        try t.expectNoRequest(
            try await t.bottomReached(), after: "bottom reached after \(limit) pages in a row added nothing",
            because: "the bound of \(limit) pages without progress was reached", hint: hint)
        try await t.expectState(
            \.hasProtocolError, true, named: "the stall (protocol-error) state",
            after: "the no-progress bound was reached", hint: hint)
    }
}
