extension PagerContract {
    /// P6: a failure keeps the items, shows an error, and a retry asks for the same page; a
    /// cancellation error of the live request also ends the loading state; with a refresh, a
    /// failed refresh's first page is the page asked for again.
    static let failureKeepsItems = PagerContract("P6") { t in
        let samePage = hint("P6")
        try await t.loadFirstPage(rows: [1, 2, 3])
        let page2 = try await t.requestNextPage(2, after: "bottom reached after page 1")
        // The pager's own number for it: a fill-the-screen pager chained filler pages before it.
        let p2 = "page \(t.actualPage(2))"
        try await t.fail(page2, with: .timeout)
        try await t.expectVisible(
            [1, 2, 3], after: "\(p2) timed out",
            hint: "A timeout never empties the list: keep the items and show the error.")
        try await t.expectState(\.isLoading, false, named: "the loading state", after: "\(p2) timed out")
        try await t.expectState(\.showsError, true, named: "the error state", after: "\(p2) timed out")

        let duringError = try await t.bottomReached()
        if !duringError.isEmpty {
            let again = try t.expectOneRequest(
                duringError, forPage: 2, after: "bottom reached while the error is shown",
                hint: samePage)
            try await t.fail(again, with: .serverError(status: 500))
            try await t.expectVisible([1, 2, 3], after: "\(p2) failed again")
        }
        let retriedAfterTimeout = try await t.retry()
        let firstRetry = try t.expectOneRequest(
            retriedAfterTimeout, forPage: 2, after: "retry",
            hint: retriedAfterTimeout.isEmpty
                ? "The retry started no request: it must load the failed page again, whatever phase the failure "
                    + "left (a retry that only starts a load from an idle phase, or behind a flag the failure left "
                    + "set, does nothing). Map the adapter's retry() to your pager's retry action."
                : samePage + " Map the adapter's retry() to your pager's retry action.")
        // The retried page failing again is the current page failing: the error shows again (the
        // fifteenth trial's store cleared its footer whenever a retry's load returned).
        try await t.fail(firstRetry, with: .timeout)
        try await t.expectState(
            \.showsError, true, named: "the error state", after: "the retried \(p2) timed out again",
            hint: "A retry that fails shows the error again: clear it when the retried page arrives, not when the retry ends.")
        let retried = try t.expectOneRequest(
            try await t.retry(), forPage: 2, after: "retry after the retried \(p2) failed again", hint: samePage)
        try await t.deliver(retried, rows: [4, 5, 6], hasMore: true)
        try await t.expectVisible([1, 2, 3, 4, 5, 6], after: "the retried \(p2) arrived")
        try await t.expectState(
            \.showsError, false, named: "the error state", after: "the retried \(p2) arrived")
        let page3 = try t.expectOneRequest(
            try await t.bottomReached(), forPage: 3, after: "bottom reached after the retry succeeded")
        // Named by the pager's own number, as page 2 is (the twenty-seventh trial's controller
        // had chained two filler pages: "page 3" named its page 5).
        let p3 = "page \(t.actualPage(3))"

        // A cancellation error of the request in flight (the system cancelled it: the app went
        // to the background, the session was invalidated) is a failure of the current page
        // too: the loading state ends and the page can be asked for again. Whether an error
        // is shown for it is the pager's choice, and so is which trigger asks again.
        try await t.fail(page3, with: .cancelled)
        try await t.expectState(
            \.isLoading, false, named: "the loading state",
            after: "\(p3)'s own request ended with a cancellation error",
            hint: "Only a non-current request's cancellation may be ignored: check the ticket first, then clear the loading state for the request in flight.")
        var askedAgain = try await t.bottomReached()
        if askedAgain.isEmpty { askedAgain = try await t.retry() }
        let page3Again = try t.expectOneRequest(
            askedAgain, forPage: 3, after: "bottom reached (or retry) after \(p3) was cancelled", hint: samePage)
        guard t.capabilities.triggers.contains(.refresh) else { return }

        // A refresh's first page that fails is the current page too: what the list shows stays
        // (kept while refreshing, or already cleared: the pager's choice), and the page asked
        // for next is that first page again, never the page after the old list (the seventh
        // trial's view model kept the old cursor after a failed refresh and appended page 4).
        try await t.deliver(page3Again, rows: [7, 8, 9], hasMore: true)
        let refreshed = try await t.refreshList("a refresh")
        let refreshing = await t.state()
        try await t.fail(refreshed, with: .timeout)
        try await t.expectVisible(
            as: refreshing, after: "the refresh's first page timed out",
            hint: "A failed refresh changes nothing that was visible: keep the items and show the error.")
        try await t.expectState(
            \.isLoading, false, named: "the loading state", after: "the refresh's first page timed out")
        var afterRefreshFailed = try await t.bottomReached()
        var action = "bottom reached while the refresh's error is shown"
        if afterRefreshFailed.isEmpty {
            afterRefreshFailed = try await t.retry()
            action = "retry after the refresh's first page timed out"
        }
        guard !afterRefreshFailed.isEmpty else { return }
        let refreshedAgain = try t.expectOneRequest(
            afterRefreshFailed, forPage: 1, after: action,
            hint: samePage + " After a failed refresh that page is the first page, not the page after the old list.")

        // The same after the old list ended: the refresh is a new generation, so the old end of
        // the list no longer stops the retry of its failed first page (the fourteenth trial's
        // view model left its "can load more" flag false across a refresh, and retry did nothing).
        try await t.deliver(refreshedAgain, rows: [1, 2, 3], hasMore: false)
        let afterEnd = try await t.refreshList("a refresh after the list ended")
        try await t.fail(afterEnd, with: .timeout)
        var retriedAfterEnd = try await t.retry()
        var retryAction = "retry after the refresh's first page timed out (the list had ended before the refresh)"
        if retriedAfterEnd.isEmpty {
            retriedAfterEnd = try await t.bottomReached()
            retryAction = "retry, then bottom reached, after the refresh's first page timed out (the list had ended "
                + "before the refresh)"
        }
        try t.expectOneRequest(
            retriedAfterEnd, forPage: 1, after: retryAction,
            hint: samePage + " A refresh starts a new generation: the old list's end no longer applies.")
    }
}
