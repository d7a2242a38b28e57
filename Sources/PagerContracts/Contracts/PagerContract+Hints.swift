import ConformanceKit

extension PagerContract {
    /// The likely cause and fix of breaking each pager rule. A failed check prints its own
    /// rule's hint; a setup step blocked by another rule prints that rule's.
    static let hints: [ContractID: String] = [
        "P1": "Set the in-flight ticket before the request starts and ignore (or join) the "
            + "trigger while it is set; after a response is accepted, the next trigger loads the "
            + "next page, once. Cancelling the running load and starting the same page again is "
            + "two requests for one page.",
        "P2": "Keep the set of visible IDs and append only rows whose ID is new, in the order "
            + "they arrive. Do not sort, replace or move earlier items, and never use positions "
            + "as identity.",
        "P3": "Accept a response only while its ticket is the one in flight, and clear the "
            + "ticket when accepting: a completion handler that runs twice then finds no match.",
        "P4": "Compare the response's whole ticket (generation and page, or cursor) with the one "
            + "in flight before writing anything, the next page position or cursor included: page "
            + "2 of the old query has the same page number as page 2 of the new one, and "
            + "cancelling the old request is not enough. A query change starts the new query "
            + "from its first page.",
        "P5": "Check the failed request's whole ticket before touching the loading or error "
            + "state: only the current request's failure belongs to the current query.",
        "P6": "Advance the page position (or store the cursor) only when a response is accepted; "
            + "a failure clears the in-flight ticket and nothing else.",
        "P7": "Keep hasMore from the accepted response and check it in every load path (bottom, "
            + "retry, explicit load). \"No cursor\" must not mean \"start again\".",
        "P8": "Cancelling the old request saves work but proves nothing: its completion can still "
            + "run with data or a cancellation error. Check the ticket on every path, the "
            + "cancellation path included.",
        "P9": "Put the requested cursor in the ticket and store the response's cursor only when "
            + "the response is accepted (after the ticket check, never before it); reset it to "
            + "none on every query change or refresh.",
        "P10": "When an accepted response returns the cursor that was requested and still says "
            + "hasMore, record a protocol error and stop loading automatically; requesting the "
            + "same cursor again loops forever.",
        "P11": "A refresh must start a new generation, exactly like a query change: reset the "
            + "page position and ticket and bump the generation, so that responses to requests "
            + "issued before it fail the ticket check.",
        "P12": "Count accepted pages in a row that add no new visible item while the server says "
            + "more, whichever way the next request starts (a trigger or your own chaining); at "
            + "the declared bound stop loading automatically and report a stall.",
        "P13": "Commit each page through the same accept path as a bottom trigger before "
            + "requesting the next; do not buffer the fill and commit it at the end.",
    ]

    /// The hint for breaking `rule`.
    static func hint(_ rule: ContractID) -> String { hints[rule] ?? "" }

    /// The hint when a stale answer's only effect was to end the loading state: its own
    /// handling was right but for a cleanup that runs on every path (an outside round's
    /// `defer { isLoading = false }` in a load task whose late answer was dropped). The fixed
    /// timelines and the explorer both lead with it, before the rule's own hint.
    static let loadingCleanupHint =
        "Only the loading state changed: a cleanup that runs whatever the answer (a `defer { isLoading "
        + "= false }` in the load, or a line after the await placed before the ticket check) ended the "
        + "loading state of the request in flight. End it only for the current request (after the ticket "
        + "check, on its success and its failure alike), never for a stale one."

    /// Whether the only change from `before` to `now` is the loading state ending.
    static func onlyLoadingEnded(from before: PagerState, to now: PagerState, changes: [String]) -> Bool {
        before.isLoading == true && now.isLoading == false && changes.count == 1
    }
}
