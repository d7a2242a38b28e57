extension PagerContract {
    /// P4: after a query change, a response to an earlier query's request changes nothing,
    /// not even the next page position when nothing else is in flight.
    static let lateStaleResponse = PagerContract("P4", requires: .init(queryChange: true)) { t in
        let hint = hint("P4")
        let (a2, b2) = try await t.loadNextPageAfterStaleRequest()
        let loadingB2 = await t.state()
        try await t.deliver(a2, rows: [103, 104], hasMore: false)
        try await t.expectUnchanged(
            since: loadingB2,
            after: "the late answer to \(a2), saying hasMore false, while page 2 of B loads",
            hint: hint)

        let c1 = try await t.switchQuery(to: "C")
        let loadingC1 = await t.state()
        try await t.deliver(b2, rows: [201, 202], hasMore: false)
        try await t.expectUnchanged(
            since: loadingC1,
            after: "the late answer to \(b2), with exactly C's items and hasMore false, before "
                + "C's first page", hint: hint)
        try await t.deliver(c1, rows: [201, 202], hasMore: true)
        try await t.expectVisible([201, 202], after: "query C's first page arrived")
        let c2 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 2,
            after: "bottom reached on query C after the stale responses",
            hint: "A stale response must not end the list, advance the page or change the cursor.")

        // A stale success with nothing else in flight: no current answer comes after it to
        // overwrite a position it wrote before its ticket check.
        let d1 = try await t.switchQuery(to: "D")
        try await t.acceptPage(
            d1, rows: [301, 302], visible: [301, 302], after: "query D's first page arrived")
        let d2 = try await t.expectSettledStaleAnswerChangesNothing(
            c2, rows: [203, 204],
            after: "the late answer to \(c2), with other rows and a next position, once D's "
                + "first page was accepted and nothing is in flight",
            then: "bottom reached on query D after that stale answer", hint: hint)

        // Back to an earlier query's name (D, E, D: a filter toggled off and on): page 2 of the
        // first visit to D is as stale as any other request. A pager that recognises its
        // requests by the query text, not by a generation, takes its answer for the current one.
        let e1 = try await t.switchQuery(to: "E")
        try await t.acceptPage(e1, rows: [401, 402], visible: [401, 402], after: "query E's first page arrived")
        let again = try await t.switchQuery(to: "D")
        try await t.acceptPage(
            again, rows: [305, 306], visible: [305, 306], after: "the second visit to query D got its first page")
        // (A pager that waits for the old request before loading page 1 had it answered
        // already, stale, by the query changes.) The late answer comes while the second visit's
        // page 2 loads: the same query name and the same page number, so a ticket made of the
        // two (an outside trial's controller) takes it, as a name alone does.
        if t.answerCount(of: d2) == 0 {
            let started = try await t.bottomReached()
            let again2 = try await t.setup("P1") {
                try t.expectOneRequest(started, forPage: 2, after: "bottom reached on the second visit to query D")
            }
            let loadingAgain2 = await t.state()
            try await t.deliver(d2, rows: [303, 304], hasMore: false)
            try await t.expectUnchanged(
                since: loadingAgain2,
                after: "the late answer to \(d2), from the first visit to query D, while page 2 of the "
                    + "second visit to D loads (the query went D, E and back to D)",
                hint: hint + " The query's name is not a ticket, nor is it with the page number: the same "
                    + "filter chosen again is a new generation.")
            try await t.acceptPage(
                again2, rows: [307, 308], visible: [305, 306, 307, 308],
                after: "page 2 of the second visit to query D arrived")
        }

        // A search field cleared while a query's first page is on its way (the adapter declares
        // the cleared query): the pager may load nothing for it, and the late page must not show
        // under it (a pager that starts each search at page 1 takes any late page 1).
        if let cleared = t.capabilities.clearedQuery {
            let f1 = try await t.switchQuery(to: "F")
            try await t.changeQuery(to: cleared)
            let clearedState = await t.state()
            try await t.deliver(f1, rows: [501, 502], hasMore: true)
            try await t.expectUnchanged(
                since: clearedState,
                after: "the late answer to \(f1) once the search was cleared (query \"\(cleared)\")",
                hint: hint + " Clearing the search is a query change too: start the new generation before "
                    + "any early return for a query too short to search.")
        }
    }
}
