import ConformanceKit

/// The invariants I1–I6, checked as the pager starts a request and on the snapshot after every
/// step, against the oracle of what the kit delivered and accepted.
extension ScheduleExecution {
    /// A failure of the contract `contract`, found by invariant `invariant` (`nil`: by a check
    /// of the contract's own, named by `check`): named by the contract, with its tier (unless
    /// the check says otherwise), the invariant or the check beside it.
    func failure(
        _ contract: ContractID, invariant: ContractID?, check: String? = nil, tier: ContractTier? = nil,
        keyedByInvariant: Bool = false,
        _ summary: String, expected: String? = nil, actual: String? = nil, difference: String? = nil,
        hint: String? = nil
    ) -> Failure {
        let descriptor = ContractCatalog.descriptor(contract)
        let title = (descriptor?.title ?? contract.rawValue)
            + (invariant.flatMap(ContractCatalog.descriptor).map { " (invariant \($0.title))" } ?? check.map { " (\($0))" } ?? "")
        return Failure(
            invariant: contract,
            violation: Violation(
                tier: tier ?? descriptor?.tier ?? .required, summary: "\(title): \(summary)", expected: expected,
                actual: actual, difference: difference, hint: hint, step: stepsTaken),
            key: keyedByInvariant ? invariant : nil)
    }

    /// The contract a broken position or list belongs to, judged on a shrunk schedule (these
    /// findings are keyed by their invariant while searching and shrinking): an earlier
    /// query's answer given since this query began moved it (P4, the stale answer written
    /// before its ticket check), or a page delivered again did (P3); else `otherwise`.
    func cause(otherwise: ContractID) -> ContractID {
        staleAnswersThisQuery > 0 ? latestStaleRule : repeatedAnswersThisQuery > 0 ? "P3" : otherwise
    }

    /// The rule of the latest answer given to a non-current request (``staleRule(of:)``).
    var latestStaleRule: ContractID {
        latestStaleRequest.flatMap { number in requests.first { $0.number == number } }.map(staleRule(of:)) ?? "P4"
    }

    /// I1, I5, I6 and the position part of I3/I4, checked as the pager starts a request.
    func checkNewRequest(_ request: Request) -> Failure? {
        if let end {
            let rule = cause(otherwise: end.contract)
            return failure(
                rule, invariant: "I5", tier: end.tier,
                keyedByInvariant: true,
                "Expected no request after the end of the list (\(end.description)), but the pager started \(describe(request)).",
                expected: "requests: none until a query change or refresh",
                actual: "requests: \(describe(request))",
                hint: hint(rule, otherwise: end.contract,
                    "Check hasMore (and the protocol-error stop) before starting a request, for every trigger: bottom reached, retry and explicit loads."))
        }
        if let running = requests.first(where: { $0.generation == generation && $0.answer == nil }) {
            // What cleared the in-flight state names the rule: an old query's answer (P4), a
            // page delivered again (P3), or else the duplicate trigger itself (P1). Judged on
            // the shrunk schedule (the search keys the finding by I1), where an answer still
            // there between the two requests is one the failure needs.
            let cause: ContractID =
                staleAnswersGiven > running.staleAnswersBefore
                ? latestStaleRule : repeatedAnswersGiven > running.repeatedAnswersBefore ? "P3" : "P1"
            return failure(
                cause, invariant: "I1", keyedByInvariant: true,
                "Expected at most one request in flight for query \(query), but the pager started \(describe(request)) while \(describe(running)) is still unanswered.",
                expected: "in flight: \(describe(running))",
                actual: "in flight: \(describe(running)), \(describe(request))",
                hint: hint(cause, otherwise: "P1",
                    "Keep the in-flight ticket until its own answer arrives: a duplicate trigger, a stale answer or a cancellation error of an old request must not clear it."))
        }
        let expected: PagePosition = usesCursors ? .cursor(lastAcceptedCursor) : .page(acceptedPages + 1)
        guard request.position != expected else { return nil }
        if let failedPosition {
            let rule = cause(otherwise: "P6")
            return failure(
                rule, invariant: "I6", keyedByInvariant: true,
                "Expected the request after the failure of \(failedPosition) to ask for \(failedPosition) again, but it asked for \(request.position).",
                expected: "position: \(failedPosition)", actual: "position: \(request.position)",
                hint: hint(rule, otherwise: "P6",
                    "A failure must not advance the page position; retry re-requests the page that failed."))
        }
        if case .cursor(let cursor?) = request.position, let origin = cursorGenerations[cursor], origin != generation {
            return failure(
                "P9", invariant: "I4",
                "Expected \(describe(request)) to carry \(expected), but it carries a cursor from a response of generation \(origin), a non-current query: its page would show that query's items.",
                expected: "position: \(expected)", actual: "position: \(request.position)",
                hint: "Store a response's cursor only after its ticket matched the request in flight.")
        }
        // The page after one an earlier visit of this query asked for: the pager resumed that
        // visit (a per-query cache of positions), whose answers are a non-current query's. The
        // fixed P4 names it so (an outside trial's cached catalogue was P1 here).
        if case .page(let page) = request.position, page > 1, acceptedPages == 0, staleAnswersThisQuery == 0,
            repeatedAnswersThisQuery == 0, resumedVisit(atPage: page)
        {
            return failure(
                "P4", invariant: "I3", keyedByInvariant: true,
                "Expected the next request to start query \(query) again at \(expected), but it asked for \(request.position), where an earlier visit of query \(query) stopped: a query change starts a new list.",
                expected: "position: \(expected)", actual: "position: \(request.position)",
                hint: PagerTimeline.revisitHint)
        }
        // A position broken by a repeated answer breaks "accepted once" (P3); otherwise
        // the next request is not the one after the accepted pages (P9 for cursors, P1's "the
        // next trigger starts exactly one request, for the next page" for page numbers).
        let rule = cause(otherwise: usesCursors ? "P9" : "P1")
        return failure(
            rule, invariant: "I3", keyedByInvariant: true,
            "Expected the next request to continue the list at \(expected) after \(acceptedPages) accepted page(s), but it asked for \(request.position): the visible list would leave the server's order.",
            expected: "position: \(expected)", actual: "position: \(request.position)",
            hint: hint(rule, otherwise: usesCursors ? "P9" : "P1",
                "Advance the page position (or store the cursor) once per accepted response, never for a repeated or stale one."))
    }

    /// `own`, the invariant's hint, when the finding is named by the rule the invariant stands
    /// for; otherwise the hint of the rule that named it (a stale answer or a repeated page
    /// caused it): an outside trial's refresh that started no new generation was told "a
    /// failure must not advance the page position".
    private func hint(_ rule: ContractID, otherwise ownRule: ContractID, _ own: String) -> String {
        rule == ownRule ? own : PagerContract.hint(rule)
    }

    /// Whether an earlier generation of the current query's name asked for the page before
    /// `page`, or (for `page` 1) ended its list: going back to a query shown before resumed it.
    func resumedVisit(atPage page: Int) -> Bool {
        requests.contains { request in
            guard request.query == query, request.generation < generation else { return false }
            if page == 1 {
                if case .page(let response)? = request.answer { return !response.hasMore }
                return false
            }
            return request.position == .page(page - 1)
        }
    }

    /// I2, I4 and I3, checked on the snapshot after every step.
    func checkState(
        before: PagerState, staleAnswer: Request?, startedCurrentRequest: Bool = false, repeatedCurrentAnswer: Bool = false
    ) throws {
        if Self.hasDuplicates(state.visible) {
            var seen: Set<VisibleItem> = []
            let duplicates = state.visible.filter { !seen.insert($0).inserted }
            throw failure(
                "P2", invariant: "I2",
                "Expected no duplicate visible IDs, but \(Self.list(duplicates)) \(duplicates.count == 1 ? "is" : "are") shown twice.",
                actual: "visible: \(state.visibleList)",
                hint: "De-duplicate by item ID against everything visible, and inside the page.")
        }
        if let stale = staleAnswer {
            var changes = state == before ? [] : state.changes(since: before)
            // At the async level a trigger still running when the query changed (a
            // fill-the-screen loop woken by its stale answer) may go on and load the current
            // query's next page: that request passed I1, I3 and I5 when it started, and the
            // loading state it shows is the current query's, not the stale answer's.
            if startedCurrentRequest, before.isLoading == false, state.isLoading == true {
                changes.removeAll { $0.hasPrefix("loading changed") }
            }
            if !changes.isEmpty {
                // The hint of the rule named: P5's for a failure (a timeout is no cancellation),
                // P8's for a cancellation error, P11's for a refresh that started no generation;
                // led, as in the fixed timelines, by the cleanup's when only the spinner went out.
                let rule = staleRule(of: stale)
                let hint =
                    PagerContract.onlyLoadingEnded(from: before, to: state, changes: changes)
                    ? PagerContract.loadingCleanupHint + " " + PagerContract.hint(rule) : PagerContract.hint(rule)
                // A request of the current query made stale by a refresh alone is not "a
                // non-current query's" (the twenty-fifth trial read that as a wrong query).
                let origin =
                    stale.queryChanges == generationQueries ? "made before the refresh" : "from a non-current query"
                throw failure(
                    rule, invariant: "I4",
                    "Expected the answer to \(describe(stale)), \(origin), to change nothing, but \(changes.joined(separator: " and ")).",
                    expected: "state: \(before)", actual: "state: \(state)",
                    difference: listDifference(expected: before.visible, actual: state.visible),
                    hint: hint)
            }
        }
        // The common case first, without building the wanted list.
        if state.visible.count == accepted.count,
            zip(state.visible, accepted).allSatisfy({ $0 == .row($1) })
        {
            return
        }
        let wanted = accepted.map(VisibleItem.row)
        // P10 asks only that loading stops at a stalled cursor: showing that page's new items
        // and refusing them both conform.
        if !refusableRows.isEmpty, state.visible == wanted.filter({
            if case .row(let id) = $0 { !refusableRows.contains(id) } else { true }
        }) {
            return
        }
        // Before the query's first page (or when that page stalled its cursor and may be
        // refused), the list may still show what it showed before, what the query change
        // showed by itself from rows accepted earlier (a per-query cache), or nothing.
        let beforeFirstPage = acceptedPages == 0 || (stalledFirstPage && acceptedPages == 1)
        if beforeFirstPage
            && (state.visible.isEmpty || state.visible == generationStartVisible || state.visible == generationShownVisible)
        {
            return
        }
        let allowed =
            beforeFirstPage
            ? acceptedSet.union(Self.rows(generationStartVisible)).union(Self.rows(generationShownVisible)) : acceptedSet
        // Items shown before this generation began, still shown beside its accepted pages: its
        // first page did not replace the list (a refresh or query change that keeps the old
        // items, often a first page that arrived on a retry after the generation's own request
        // failed). A refresh is a new query (P11); after a query change, only the new query's
        // items are shown (P4). An answer given since to an older request is judged below.
        if !beforeFirstPage, staleAnswersThisQuery == 0, repeatedAnswersThisQuery == 0 {
            let leftovers = state.visible.filter {
                if case .row(let id) = $0 { return !acceptedSet.contains(id) } else { return false }
            }.filter { generationStartVisible.contains($0) || generationShownVisible.contains($0) }
            if !leftovers.isEmpty {
                let start = generationIsRefresh ? "the refresh" : "the change to query \(query)"
                throw failure(
                    generationIsRefresh ? "P11" : "P4", invariant: "I3", keyedByInvariant: true,
                    "Expected the first page after \(start) to replace the list, but \(Self.list(leftovers)), shown before \(start), \(leftovers.count == 1 ? "is" : "are") still visible beside its items.",
                    expected: "visible: \(Self.list(wanted))", actual: "visible: \(state.visibleList)",
                    difference: listDifference(expected: wanted, actual: state.visible),
                    hint: "Replace the list with the generation's first page when it is accepted, also when it comes on a retry or a bottom trigger after the refresh's or query change's own request failed.")
            }
        }
        // Items of the generation's accepted pages missing, every one of them shown before the
        // generation began, no failure shown and nothing of the generation in flight: the pager
        // kept what it had seen before the refresh or query change and dropped them as already
        // shown (the thirty-fourth trial's search controller, whose refresh kept its set of seen
        // IDs, was named P2 and P13 for it, never P11). While the chain of loads goes on, a pager
        // that commits at the chain's end shows the same list: P13's check below names that (a
        // wait for the chain's end named `PagerThatCommitsFillAtTheEnd` P4 or P11 besides P13).
        // (A stale answer that changed anything failed at its own step; a page delivered again
        // that changed the list is P3's.)
        let chainGoesOn = requests.contains { $0.generation == generation && $0.answer == nil }
        if !beforeFirstPage, !chainGoesOn, failedPosition == nil, !repeatedCurrentAnswer || state.visible == before.visible {
            let earlier = acceptedBefore.union(Self.rows(generationStartVisible)).union(Self.rows(generationShownVisible))
            let missing = wanted.filter { !state.visible.contains($0) }
            let carriedOver =
                !missing.isEmpty && missing.allSatisfy { if case .row(let id) = $0 { earlier.contains(id) } else { false } }
            if carriedOver {
                let start = generationIsRefresh ? "the refresh" : "the change to query \(query)"
                throw failure(
                    generationIsRefresh ? "P11" : "P4", invariant: "I3", keyedByInvariant: true,
                    "Expected the accepted pages after \(start) to be shown whole, but \(Self.list(missing)), shown before \(start), \(missing.count == 1 ? "is" : "are") missing: dropped as if already shown.",
                    expected: "visible: \(Self.list(wanted))", actual: "visible: \(state.visibleList)",
                    difference: listDifference(expected: wanted, actual: state.visible),
                    hint: "Start a new list with the generation's first page: forget the IDs seen before the refresh or query change, as the items themselves are replaced.")
            }
        }
        let intruders = state.visible.filter {
            if case .row(let id) = $0 { return !allowed.contains(id) && staleRows.contains(id) }
            return false
        }
        if !intruders.isEmpty {
            throw failure(
                "P4", invariant: "I4",
                "Expected only items of query \(query) to be visible, but \(Self.list(intruders)) came from an answer to a request of a non-current query.",
                expected: "visible: \(Self.list(wanted))", actual: "visible: \(state.visibleList)",
                difference: listDifference(expected: wanted, actual: state.visible),
                hint: "Check the ticket's generation before appending an answer.")
        }
        // Every accepted item shown in order, the last pages' not yet, while the chain of loads
        // goes on: a trigger that fills the screen and commits at its end (P13, recommended).
        // With nothing in flight the missing items are a lost page (P3).
        if chainGoesOn, state.visible.count < wanted.count, Array(wanted.prefix(state.visible.count)) == state.visible
        {
            throw failure(
                "P13", invariant: "I3",
                "Expected each accepted page to be shown before the next is requested, but \(Self.list(Array(wanted.dropFirst(state.visible.count)))) of accepted pages \(state.visible.isEmpty ? "are" : "are still") not visible.",
                expected: "visible: \(Self.list(wanted))", actual: "visible: \(state.visibleList)",
                difference: listDifference(expected: wanted, actual: state.visible),
                hint: "Commit each page as its response is accepted, then request the next; a failure in the middle keeps the committed pages.")
        }
        // Items already visible gone while the current page's failure is shown: a failure that
        // cleared the list (P6: the items already visible stay).
        if failedPosition != nil, staleAnswersThisQuery == 0, repeatedAnswersThisQuery == 0,
            state.visible.count < wanted.count, Set(state.visible).isSubset(of: Set(wanted))
        {
            // Keyed by I3, as the fallback below is: a shrink that drops an unrelated stale
            // answer or repeated page turns that fallback into this one.
            throw failure(
                "P6", invariant: "I3", keyedByInvariant: true,
                "Expected the items already visible to stay after the failure of \(failedPosition!), but \(Self.list(wanted.filter { !state.visible.contains($0) })) \(wanted.count - state.visible.count == 1 ? "is" : "are") gone.",
                expected: "visible: \(Self.list(wanted))", actual: "visible: \(state.visibleList)",
                difference: listDifference(expected: wanted, actual: state.visible),
                hint: "A failure shows an error and clears the loading state; it never empties or trims the list (a timeout never empties the list).")
        }
        // A list broken by a repeated answer is P3's; otherwise the list
        // is not what merging the accepted pages gives (P2: each ID once, in the server's order).
        throw failure(
            cause(otherwise: "P2"), invariant: "I3", keyedByInvariant: true,
            "Expected the visible list to be the accepted pages' items, de-duplicated, in server order, \(Self.list(wanted)), but it is \(state.visibleList).",
            expected: "visible: \(Self.list(wanted))", actual: "visible: \(state.visibleList)",
            difference: listDifference(expected: wanted, actual: state.visible),
            hint: "Append each accepted page at once, keep the server's order, and accept a response only once.")
    }

    /// P3 on the snapshot after a current-query page was delivered again: it is accepted once,
    /// so the second delivery changes neither `hasMore` nor, while another request of the query
    /// is in flight, the loading state (taken as that request's answer, it moves the position
    /// too). The list itself is I3's. (The thirty-first trial's buggy search screen took page
    /// 1 again as page 2's answer, ended its list on it, and was named P6 by the liveness
    /// check two steps later.)
    func checkRepeatedAnswer(_ repeated: Request, before: PagerState) throws {
        let inFlight = openNumbers.first { requests[$0 - 1].generation == generation }
        // Still loading with nothing of the query in flight: the first delivery was lost (a
        // flag set after a completion that ran at once), and this one is the only one the pager
        // takes; what that loses is another rule's (P1's, whichever the search named).
        if before.isLoading == true, inFlight == nil { return }
        var changes: [String] = []
        if let old = before.hasMore, let new = state.hasMore, old != new {
            changes.append("hasMore changed from \(old) to \(new)")
        }
        if let inFlight, before.isLoading == true, state.isLoading == false {
            changes.append("loading ended while request #\(inFlight) is in flight")
        }
        guard !changes.isEmpty else { return }
        throw failure(
            "P3", invariant: nil, check: "a page delivered again changes nothing",
            "Expected the second delivery of \(describe(repeated)) to change nothing (a response is accepted once), but \(changes.joined(separator: " and ")).",
            expected: "state: \(before)", actual: "state: \(state)",
            hint: PagerContract.hint("P3"))
    }

    /// The rule a non-current request's answer breaks when it changes what the user sees, or
    /// what the pager does next: when a refresh made it stale (no query change since it was
    /// made, only a newer generation), P11, whatever the answer (P8 is about a query change);
    /// else a query change did, and the answer says which rule: a cancellation error (P8), any
    /// other failure (P5), a page (P4). (The twentieth trial's `NotificationsReducer`, whose
    /// reload keeps the old load, was found under P11 and again under P8 for the same bug.)
    func staleRule(of stale: Request) -> ContractID {
        let answer = requests.first(where: { $0.number == stale.number })?.answer
        if stale.queryChanges == generationQueries { return "P11" }
        if case .failure(let failure)? = answer, failure.isCancellation { return "P8" }
        if case .failure? = answer { return "P5" }
        return "P4"
    }

    /// Whether an item appears twice; without a set for the short lists a schedule shows.
    static func hasDuplicates(_ items: [VisibleItem]) -> Bool {
        guard items.count > 1 else { return false }
        guard items.count <= 32 else { return Set(items).count != items.count }
        for later in 1..<items.count {
            for earlier in 0..<later where items[earlier] == items[later] { return true }
        }
        return false
    }

    static func rows(_ items: [VisibleItem]) -> RowSet {
        RowSet(items.compactMap { if case .row(let id) = $0 { id } else { nil } })
    }

    static func list(_ items: [VisibleItem]) -> String {
        "[" + items.map(\.description).joined(separator: ", ") + "]"
    }
}
