extension PagerContract {
    /// P12 (recommended): pages that add nothing new stop automatic loading after a bound,
    /// whether the next request comes from a trigger or from the pager chaining loads itself.
    static let noProgressStall = PagerContract("P12") { t in
        let limit = t.capabilities.noProgressLimit
        let hint = hint("P12") + " The declared bound is \(limit)."
        try await t.loadFirstPage(rows: [1, 2, 3])
        if !t.capabilities.stopsOnNoProgress {
            // Declared: each trigger loads at most one page that adds nothing, then waits.
            for page in 2...(limit + 2) {
                let started = try await t.bottomReached()
                if started.isEmpty { return }
                let request = try await t.setup("P1") {
                    try t.expectOneRequest(
                        started, forPage: page, after: "bottom reached (the last page added nothing new)")
                }
                let chained = try await t.deliver(
                    request, rows: [1, 2, 3], hasMore: true, followUps: .returned)
                try t.expectNoRequest(
                    chained, after: "an accepted page that added nothing new",
                    because: "the adapter declares stopsOnNoProgress: false: after a page that "
                        + "adds nothing the pager waits for the next trigger", hint: hint)
            }
            return
        }
        // Pages without progress that are not in a row never stop loading: a page that adds
        // anything new, even beside duplicates, starts the count again (the fifteenth trial's
        // feed counted every such page and stalled after three, progress in between). With a
        // bound of 1 there is no such pattern: one page that adds nothing is already the bound
        // (the thirty-first trial's keyset pager, which ends its list on such a page, was warned
        // for stopping there).
        var pending: [PageRequestRecord] = []
        var page = 2
        for round in 0..<(limit >= 2 ? limit : 0) {
            for (rows, added) in [([1, 2, 3], "nothing new"), ([1, 2, 100 + round], "one new item")] {
                var started = pending
                pending = []
                let byItself = !started.isEmpty
                if started.isEmpty { started = try await t.bottomReached() }
                if started.isEmpty, page == 2 {
                    // No page without progress yet: page 2 after page 1 is P1's rule.
                    _ = try await t.setup("P1") {
                        try t.expectOneRequest(started, forPage: page, after: "bottom reached after page 1 arrived")
                    }
                }
                guard let request = started.first else {
                    throw t.violation(
                        "Expected bottom reached to start a request for page \(page): the pages that added nothing "
                            + "were not in a row (each was followed by one that added an item), but it started none.",
                        expected: "one request for page \(page)", actual: "requests: none",
                        hint: hint + " A page that adds anything new, even beside duplicates, starts the count again.")
                }
                if !byItself {
                    _ = try await t.setup("P1") {
                        try t.expectOneRequest(
                            [request], forPage: page, after: "bottom reached (pages without progress, not in a row)")
                    }
                }
                t.section("page \(page) adds \(added)")
                pending = try await t.deliver(request, rows: rows, hasMore: true, followUps: .returned)
                page += 1
            }
        }
        var empty = 0
        while true {
            var byItself = !pending.isEmpty
            if pending.isEmpty {
                pending = try await t.bottomReached()
                byItself = false
                if pending.isEmpty {
                    if empty >= 1 {
                        t.section("loading stopped after \(empty) page(s) that added nothing")
                        if empty < limit { return }
                        break
                    }
                    _ = try await t.setup("P1") {
                        try t.expectOneRequest(
                            pending, forPage: page, after: "bottom reached after page 1")
                    }
                }
            }
            let request = pending.removeFirst()
            let how = byItself ? "the pager chained by itself" : "bottom reached"
            if empty >= limit {
                throw t.violation(
                    "Expected no request after \(limit) accepted pages in a row added nothing "
                        + "while the server said more, but \(how) started \(request).",
                    expected: "requests: none (the bound of \(limit) pages without progress was reached)",
                    actual: "requests: \(request)", hint: hint)
            }
            if !byItself {
                _ = try await t.setup("P1") {
                    try t.expectOneRequest(
                        [request], forPage: page,
                        after: "bottom reached (the last page added nothing new)")
                }
            }
            pending += try await t.deliver(request, rows: [1, 2, 3], hasMore: true, followUps: .returned)
            empty += 1
            page += 1
        }
        // "A stall is reported": the rule names no state, so either one that tells the user
        // automatic loading stopped conforms: the protocol-error state, or the end of the list
        // ("no more" shown). A pager that stops but still shows "more to come" is the finding.
        // One that reports no protocol-error state is judged on `hasMore` alone (the check used
        // to be skipped then, the reason only in the report's notes, and an outside trial's
        // reducer store that stopped with "more to come" on screen passed).
        let now = await t.state()
        guard now.hasProtocolError != nil || now.hasMore != nil else {
            t.recorder.note(
                "The snapshot reports neither hasProtocolError nor hasMore, so whether the stop was shown "
                    + "was not checked: report hasMore (and hasProtocolError, if the pager has such a state).")
            return
        }
        guard now.hasProtocolError != true, now.hasMore != false else { return }
        let unreported = now.hasProtocolError == nil
            ? " It reports no protocol-error state (hasProtocolError nil): if it has one, report it." : ""
        throw t.violation(
            "Expected the stall to be reported after loading stopped on pages that added nothing (the "
                + "protocol-error state set, or no more pages shown), but the pager shows neither." + unreported,
            expected: "protocol error: true, or hasMore: false",
            actual: "state: \(now)", hint: hint)
    }
}
