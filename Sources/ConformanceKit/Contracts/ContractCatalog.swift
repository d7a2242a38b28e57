/// The contract catalogue: every rule the kit checks, by stable ID.
///
/// Generated from `CONTRACTS.md` (the specification); the text here is the rule as written there.
/// The pager, queue and server modules attach a timeline to these descriptors.
public enum ContractCatalog {
    /// Pager contracts, in catalogue order.
    public static let pager: [ContractDescriptor] = [
        ContractDescriptor(
            id: "P1", name: "duplicate bottom trigger",
            rule: "While a next-page request is in flight, further bottom triggers start no request. The loading state shows once. After the response is accepted, the next trigger starts exactly one request, for the next page. Ignoring the trigger, joining the running load, or rejecting it with an error all conform; cancelling the running load and starting the same page again does not (two requests for one page).",
            tier: .required),
        ContractDescriptor(
            id: "P2", name: "cross-page duplicate IDs",
            rule: "An item whose ID is already visible is not shown again (the first occurrence stays where it is); the remaining items keep the server's order. Duplicates inside one page are treated the same way. Identity is the item's ID, never its position.",
            tier: .required),
        ContractDescriptor(
            id: "P3", name: "duplicate completion",
            rule: "A response delivered twice for the same request (a completion handler that runs twice) is accepted once: the list, `hasMore` and the next page position change once.",
            tier: .required),
        ContractDescriptor(
            id: "P4", name: "late stale response",
            rule: "After the query changes (filter switch), a response to any request issued under an earlier query changes nothing: not the items, not `hasMore`, not the loading state, not the next page position. This holds whether the stale response arrives before or after the new query's first page, when it says `hasMore: false`, and when it carries exactly the items the new query would show.",
            tier: .required),
        ContractDescriptor(
            id: "P5", name: "stale failure",
            rule: "A failure (any error other than a cancellation error; those are P8's) of a request issued under an earlier query does not show an error, clear the loading state, or block loading for the current query.",
            tier: .required),
        ContractDescriptor(
            id: "P6", name: "failure keeps items, retry same page",
            rule: "When the current page fails: the loading state clears, an error is shown, the items already visible stay (a timeout never empties the list), the page position does not advance. A retry requests the same page (same page number, or the same cursor). A bottom trigger while the error is shown may either do nothing or request that same page; it never requests a different page. A success after the retry appends normally.",
            tier: .required),
        ContractDescriptor(
            id: "P7", name: "end of list",
            rule: "After an accepted response says there are no more pages, no trigger other than a query change or a refresh starts a request: not bottom reached, not retry, not an explicit load (\"no cursor\" must not mean \"start again from page 1\").",
            tier: .required),
        ContractDescriptor(
            id: "P8", name: "cancellation is not proof",
            rule: "After a query change the old request may be cancelled, but its completion can still run, with data or with a cancellation error. Neither changes the new query's state (P4/P5 apply).",
            tier: .required),
        ContractDescriptor(
            id: "P9", name: "cursor carried by the ticket",
            rule: "Cursor APIs: the first request of every query (after every query change or refresh) carries no cursor; each next request carries the cursor of the last *accepted* response; a cursor from a stale or duplicate response is never used.",
            tier: .required),
        ContractDescriptor(
            id: "P10", name: "cursor-stall protocol error",
            rule: "Cursor APIs: if an accepted response returns the same cursor that was requested while still saying there are more pages, the pager records a protocol error and stops automatic loading: further bottom triggers start no request (requesting the same page again forever is the bug). Recommended tier: also a cursor that repeats any earlier cursor of the same query (A, B, A: a cycle), which Android Paging 3's same-key check misses. P10 needs only cursor pagination: the check is that no further request for the stalled cursor is made; if the adapter also reports a protocol-error state, that state must be set.",
            tier: .required),
        ContractDescriptor(
            id: "P11", name: "refresh is a new query",
            rule: "A pull-to-refresh or page restore that reloads from the first page is a new generation: responses to requests issued before it are stale (P4/P5 apply to them).",
            tier: .required),
        ContractDescriptor(
            id: "P12", name: "no-progress stall",
            rule: "Cursors or pages keep advancing but accepted pages add no new visible item (all duplicates, or all filtered out on the client) while the server still says there are more: after a bounded number of such pages in a row (the adapter declares it; 3 by default) automatic loading stops and a stall is reported, instead of chaining loads forever with the bottom sentinel on screen.",
            tier: .recommended),
        ContractDescriptor(
            id: "P13", name: "one page committed at a time",
            rule: "A trigger that loads several pages to fill the screen commits each page before requesting the next; a failure in the middle keeps the pages already committed and the position of the failed page (P6 applies to it).",
            tier: .recommended),
    ]
    /// Write-queue contracts, in catalogue order.
    public static let writeQueue: [ContractDescriptor] = [
        ContractDescriptor(
            id: "Q1", name: "persist before send",
            rule: "A submitted operation is in durable storage, with its operation ID, body **and key** fixed, before its first request is sent: a crash right after submit loses nothing, and the relaunched queue sends it with the key chosen at submit.",
            tier: .required),
        ContractDescriptor(
            id: "Q2", name: "unknown outcome keeps the task",
            rule: "A disconnect, a timeout or a 5xx (the seed's 503) means the outcome is unknown: the task stays, pending (neither completed nor removed), with its operation ID, key, body and creation time unchanged; only the attempt count and the retry state change.",
            tier: .required),
        ContractDescriptor(
            id: "Q3", name: "replay after crash",
            rule: "The server commits the write but the response is lost (503 or dropped connection); the app crashes; after relaunch the queue resends the same operation with the same key and byte-identical body, receives the original result, and completes. The server sees the same key on both attempts and holds exactly one record; a queue that merely lost the task also ends with one record, so the resend itself is checked.",
            tier: .required),
        ContractDescriptor(
            id: "Q4", name: "409 stops",
            rule: "A 409 (same key, different body) stops automatic resending of that task: it is kept, marked as needing attention with a diagnostic, and later sending passes do not send it again. Other tasks keep flowing. This is the source document's server contract and the default. A queue whose server follows the IETF idempotency-key draft declares that profile instead: there 409 means \"a request with this key is still being processed\" (keep the task, retry later with the same key) and 422 means \"this key was used with a different body\" (stop, as above).",
            tier: .required),
        ContractDescriptor(
            id: "Q5", name: "success-only completion",
            rule: "Only an explicit success response completes or removes a task.",
            tier: .required),
        ContractDescriptor(
            id: "Q6", name: "new action, new key",
            rule: "Two separate submits, even with identical bodies, are two operations with two different keys, and the server ends with two records. Idempotency must not swallow a genuine new action.",
            tier: .required),
        ContractDescriptor(
            id: "Q7", name: "single sender",
            rule: "Two sending passes started together (foreground resume and background sync) never have two requests for the same task in flight at once. Required for two passes on one queue instance; also required for two instances over the same storage when the adapter declares its storage shared (an app and its extension), since the source document puts the sending right in the persistence layer.",
            tier: .required),
        ContractDescriptor(
            id: "Q8", name: "capped backoff keeps identity",
            rule: "After repeated unknown outcomes, retries wait a positive delay that never exceeds the cap the adapter declares (measured on an injected clock, not wall time; growing, fixed or randomised within the cap): no send happens before the due time, one happens after it. Waiting never changes the operation ID, key or body. A queue that backs off with no ceiling breaks this rule (it must be able to say so); a fixed retry delay is its own cap.",
            tier: .required),
        ContractDescriptor(
            id: "Q9", name: "other client errors by contract",
            rule: "A 4xx other than 409 is not retried blindly: the queue follows the classification its adapter declares (for example 408 and 429 retry) and never resends a request it classified as terminal. 400 and 422 are always terminal, whatever is declared: the same bytes cannot become valid by being sent again.",
            tier: .required),
        ContractDescriptor(
            id: "Q10", name: "no sensitive data in diagnostics",
            rule: "Where the adapter exposes diagnostics or log lines, none contains the value of a body field marked sensitive.",
            tier: .required),
        ContractDescriptor(
            id: "Q11", name: "restore never displaces",
            rule: "After a relaunch, an operation submitted before or while the queue restores its stored tasks never overwrites or drops the tasks persisted before the crash.",
            tier: .recommended),
        ContractDescriptor(
            id: "Q12", name: "coalescing keeps the latest body",
            rule: "A queue that merges pending updates to the same entity sends the latest body, keeps one key per merged operation, and never merges two creates. A queue that does not merge passes trivially.",
            tier: .recommended),
    ]
    /// Idempotency server contracts, in catalogue order.
    public static let server: [ContractDescriptor] = [
        ContractDescriptor(
            id: "S1", name: "same key, same body",
            rule: "Returns the original result (same record ID); creates no new record.",
            tier: .required),
        ContractDescriptor(
            id: "S2", name: "same key, different body",
            rule: "Rejected with 409 (a server may declare 422 instead, as the IETF idempotency-key draft does); the stored record is not overwritten.",
            tier: .required),
        ContractDescriptor(
            id: "S3", name: "missing key or bad body",
            rule: "400; nothing is recorded.",
            tier: .required),
        ContractDescriptor(
            id: "S4", name: "concurrent duplicates",
            rule: "Many concurrent requests with one key create exactly one record.",
            tier: .required),
        ContractDescriptor(
            id: "S5", name: "durable records",
            rule: "Records survive a restart of the server (where the server claims durability).",
            tier: .required),
    ]
    /// Exploration invariants, checked after every step of an explored schedule.
    public static let invariants: [ContractDescriptor] = [
        ContractDescriptor(id: "I1", name: "at most one request in flight", rule: "At most one request in flight."),
        ContractDescriptor(id: "I2", name: "no duplicate visible IDs", rule: "No duplicate visible IDs."),
        ContractDescriptor(id: "I3", name: "the visible list equals the accepted pages' items, de-duplicated, in server order", rule: "The visible list equals the accepted pages' items, de-duplicated, in server order."),
        ContractDescriptor(id: "I4", name: "nothing from a non-current query ever becomes visible", rule: "Nothing from a non-current query ever becomes visible."),
        ContractDescriptor(id: "I5", name: "no request after the end of the list", rule: "No request after the end of the list."),
        ContractDescriptor(id: "I6", name: "a retry asks for the page that failed", rule: "A retry asks for the page that failed."),
        ContractDescriptor(id: "I7", name: "every request for one operation carries the same key and body", rule: "Every request for one operation carries the same key and body."),
        ContractDescriptor(id: "I8", name: "the server never holds two records for one operation", rule: "The server never holds two records for one operation."),
        ContractDescriptor(id: "I9", name: "a task leaves storage only after an explicit success", rule: "A task leaves storage only after an explicit success."),
    ]

    /// Every descriptor in the catalogue.
    public static var all: [ContractDescriptor] { pager + writeQueue + server + invariants }

    /// The descriptor with the given ID, or `nil` for an ID the catalogue does not know.
    public static func descriptor(_ id: ContractID) -> ContractDescriptor? {
        all.first { $0.id == id }
    }
}
