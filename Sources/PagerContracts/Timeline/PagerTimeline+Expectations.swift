import ConformanceKit

extension PagerTimeline {
    /// Fails the contract with a bug report at the current step, or, inside a setup step that
    /// depends on another rule (``setup(_:_:)``), blocks it by that rule, with that rule's hint.
    /// - Returns: The error that stops the timeline; `throw` it.
    package func violation(
        _ summary: String, expected: String? = nil, actual: String? = nil,
        difference: String? = nil, hint: String? = nil
    ) -> TimelineStop {
        violation(
            under: setupRule, summary, expected: expected, actual: actual, difference: difference,
            hint: hint)
    }

    /// The violation of a check that depends on `rule` (`nil`: the contract's own rule).
    /// - Parameter diagnosis: A hint for the cause the timeline recognised, printed instead of
    ///   the rule's own hint, also when another rule blocks the contract.
    func violation(
        under rule: ContractID?, _ summary: String, expected: String? = nil,
        actual: String? = nil, difference: String? = nil, hint: String? = nil,
        diagnosis: String? = nil
    ) -> TimelineStop {
        if let rule, rule != contract {
            return recorder.block(
                by: rule,
                Violation(
                    summary: summary, expected: expected, actual: actual, difference: difference,
                    hint: diagnosis ?? PagerContract.hint(rule)))
        }
        return recorder.fail(
            Violation(
                tier: tier, summary: summary, expected: expected, actual: actual,
                difference: difference, hint: diagnosis ?? hint ?? rule.flatMap { PagerContract.hints[$0] }))
    }

    /// Expects `started` to be exactly one request, for `page` of the current query (for
    /// cursors: carrying the cursor of the last accepted response, or none for page 1).
    /// - Returns: The request.
    @discardableResult
    package func expectOneRequest(
        _ started: [PageRequestRecord], forPage page: Int, after action: String,
        hint: String? = nil
    ) throws -> PageRequestRecord {
        let wanted = expectedPosition(forPage: page)
        let page = actualPage(page)
        let wantedText = "one request for page \(page) of query \(query)"
            + (usesCursors ? " (\(wanted?.description ?? "the accepted cursor"))" : "")
        guard started.count == 1, let request = started.first else {
            let misread = started.isEmpty ? misreadEnd : nil
            throw violation(
                under: setupRule,
                "Expected \(action) to start \(wantedText), but it started "
                    + (started.isEmpty ? "none." : "\(started.count): \(Self.describe(started)).")
                    + (misread.map { " " + $0 } ?? ""),
                expected: "requests: 1, \(wanted?.description ?? "page \(page)")",
                actual: "requests: \(started.count)\(started.isEmpty ? "" : ", " + Self.describe(started))",
                hint: hint, diagnosis: misread == nil ? nil : Self.misreadEndHint)
        }
        let positionMatches = wanted.map { $0 == request.position } ?? (request.page == page)
        guard positionMatches, request.generation == generation else {
            // Inside a setup step, the wrong cursor is the cursor rule's: P9.
            let rule: ContractID? = usesCursors && setupRule != nil ? "P9" : setupRule
            let revisit = resumesEarlierVisit(request)
            throw violation(
                under: rule,
                "Expected \(action) to start \(wantedText), but it started \(request)."
                    + (revisit ? " The pager went on where an earlier visit of query \(query) stopped." : ""),
                expected: "position \(wanted?.description ?? "page \(page)")",
                actual: "position \(request.position)",
                hint: hint, diagnosis: revisit ? Self.revisitHint : nil)
        }
        return request
    }

    /// Whether `request`, of the current generation, asks for the page after one an earlier
    /// generation of the same query text requested: the pager resumed an earlier visit (a
    /// per-query cache of positions).
    private func resumesEarlierVisit(_ request: PageRequestRecord) -> Bool {
        guard !usesCursors, request.generation == generation, let page = request.page, page > 1 else { return false }
        return requests.contains { $0.query == query && $0.generation < generation && $0.page == page - 1 }
    }

    /// The hint for a query change that resumed an earlier visit of the same query.
    static let revisitHint = "A query change starts a new list at its first page, also when it "
        + "returns to a query shown before: the page position and hasMore of an earlier visit are "
        + "answers to a non-current query's requests. A per-query cache may show its rows at once, "
        + "but load page 1 again."

    /// Expects `started` to be empty.
    /// - Parameters:
    ///   - reason: Why no request may start, such as `page 2 is still in flight`.
    package func expectNoRequest(
        _ started: [PageRequestRecord], after action: String, because reason: String,
        hint: String? = nil
    ) throws {
        guard !started.isEmpty else { return }
        throw violation(
            "Expected \(action) to start no request (\(reason)), but it started "
                + "\(Self.describe(started)).",
            expected: "requests: none",
            actual: "requests: \(Self.describe(started))",
            hint: hint)
    }

    /// Expects a bottom trigger after `what` to start no request; where another trigger could
    /// not be observed (``triggerUnobservable``), notes the check as left out instead.
    /// - Parameters:
    ///   - reason: Why no request may start, such as `page 2 is still in flight`.
    package func expectNoRequestOnBottomReached(
        after what: String, because reason: String, hint: String? = nil
    ) async throws {
        if let unobservable = triggerUnobservable {
            skipCheck("a bottom trigger after \(what)", because: unobservable)
        } else {
            try expectNoRequest(
                try await bottomReached(), after: "bottom reached after \(what)", because: reason,
                hint: hint)
        }
    }

    /// Answers `stale` with `rows` and a next position once the current generation's first
    /// page is accepted and nothing is in flight, and expects that to change nothing, not even
    /// the next page: no current answer comes after it to overwrite a position it wrote before
    /// its ticket check (P4, P11).
    /// - Parameters:
    ///   - action: The stale answer, as the failure names it.
    ///   - nextAction: The bottom trigger after it, expected to ask for page 2.
    /// - Returns: The request the bottom trigger after it started.
    @discardableResult
    package func expectSettledStaleAnswerChangesNothing(
        _ stale: PageRequestRecord, rows: [Int], after action: String, then nextAction: String,
        hint: String? = nil
    ) async throws -> PageRequestRecord {
        let settled = await state()
        try await deliver(stale, rows: rows, hasMore: true)
        try await expectUnchanged(since: settled, after: action, hint: hint)
        return try expectOneRequest(
            try await bottomReached(), forPage: 2, after: nextAction,
            hint: "The stale answer wrote its next page or cursor before the ticket check: "
                + "compare the ticket first, then write the position.")
    }

    /// Expects the visible items to be exactly `ids`, in order.
    package func expectVisible(_ ids: [Int], after action: String, hint: String? = nil)
        async throws
    {
        var now = await state()
        now.visible.removeAll { if case .row(let id) = $0 { isFiller(id) } else { false } }
        let wanted = ids.map(VisibleItem.row)
        guard now.visible != wanted else { return }
        let wantedList = RowListText.text(ids)
        throw violation(
            "Expected the visible items to be \(wantedList) after \(action), but they are "
                + "\(now.visibleList).",
            expected: "visible: \(wantedList)",
            actual: "visible: \(now.visibleList)",
            difference: listDifference(expected: wanted, actual: now.visible),
            hint: hint)
    }

    /// Expects none of `ids` (rows only an earlier query's answer holds) to be visible.
    package func expectNotVisible(_ ids: [Int], after action: String, hint: String? = nil) async throws {
        let now = await state()
        let shown = ids.filter { now.visible.contains(.row($0)) }
        guard !shown.isEmpty else { return }
        let list = RowListText.text(shown)
        throw violation(
            "Expected nothing from an earlier query to become visible after \(action), but \(list) did.",
            expected: "visible: none of \(list)", actual: "visible: \(now.visibleList)", hint: hint)
    }

    /// Expects the visible items to be those `earlier` showed (rows of fill-the-screen
    /// follow-ups aside), in order.
    package func expectVisible(as earlier: PagerState, after action: String, hint: String? = nil)
        async throws
    {
        let ids = earlier.visible.compactMap { item -> Int? in
            if case .row(let id) = item, !isFiller(id) { return id }
            return nil
        }
        try await expectVisible(ids, after: action, hint: hint)
    }

    /// Expects nothing the user sees to differ from `before`.
    package func expectUnchanged(since before: PagerState, after action: String, hint: String? = nil)
        async throws
    {
        let now = await state()
        let changed = now.changes(since: before)
        guard !changed.isEmpty else { return }
        throw violation(
            "Expected nothing to change after \(action), but "
                + changed.joined(separator: " and ") + ".",
            expected: "state: \(before)",
            actual: "state: \(now)",
            difference: listDifference(expected: before.visible, actual: now.visible),
            hint: PagerContract.onlyLoadingEnded(from: before, to: now, changes: changed)
                ? PagerContract.loadingCleanupHint + (hint.map { " " + $0 } ?? "")
                : hint)
    }

    /// Expects a reported state to have `value`; when the adapter does not report it, notes
    /// that it was not checked.
    package func expectState(
        _ path: KeyPath<PagerState, Bool?>, _ value: Bool, named name: String,
        after action: String, hint: String? = nil
    ) async throws {
        let now = await state()
        guard let actual = now[keyPath: path] else {
            recorder.note("The adapter does not report \(name): checks of it were skipped.")
            return
        }
        guard actual != value else { return }
        throw violation(
            "Expected \(name) to be \(value) after \(action), but it is \(actual).",
            expected: "\(name): \(value)",
            actual: "state: \(now)",
            hint: hint)
    }

    /// Expects a stop of automatic loading to be shown after `action`: the protocol-error state
    /// set, or the end of the list (`hasMore` false), which is how a pager that reads a missing
    /// cursor as the end stops. A state the adapter leaves `nil` is not judged.
    package func expectStopShown(after action: String, hint: String? = nil) async throws {
        let now = await state()
        guard now.hasProtocolError != nil || now.hasMore != nil else {
            recorder.note("The adapter reports neither the protocol-error state nor hasMore: checks of them were skipped.")
            return
        }
        guard now.hasProtocolError != true, now.hasMore != false else { return }
        throw violation(
            "Expected the protocol-error state (or the end of the list) to be shown after \(action), "
                + "but neither is.",
            expected: "protocol error: true, or hasMore: false",
            actual: "state: \(now)",
            hint: hint)
    }

    /// The request that loads the current query's first page: the one `started` holds, or, for
    /// a pager that waits for the next trigger, the one the next bottom trigger starts. Both
    /// conform.
    package func firstPageRequest(after started: [PageRequestRecord], of action: String)
        async throws -> PageRequestRecord
    {
        if !started.isEmpty {
            return try expectOneRequest(started, forPage: 1, after: action)
        }
        let open = requests.filter { $0.generation < generation && answerCount(of: $0) == 0 }
        if lastTriggerWaits, !open.isEmpty {
            // A query change or refresh that waits for the old request to finish before it
            // loads page 1 (a serial request queue): the old requests are answered now, stale.
            section("\(action) waits for the earlier request to finish: the kit answers it now")
            var resumed: [PageRequestRecord] = []
            for stale in open {
                resumed += try await deliver(
                    stale, rows: [stale.number * 1_000 + 1], hasMore: false)
            }
            // Waiting for the old request is a conforming variation; showing its answer is not.
            // (Unchecked, a pager whose new query joined the old query's in-flight load showed
            // the old rows and then failed on "started none", with a hint about a flag.)
            try await setup("P4") {
                try await expectNotVisible(
                    open.map { $0.number * 1_000 + 1 },
                    after: "the earlier request's answer arrived while \(action) waited for it",
                    hint: "A query change or refresh that waits for the earlier request must still drop "
                        + "that request's answer: compare the answer's ticket with the current one before "
                        + "writing anything, and do not hand the old query's in-flight load to the new one.")
            }
            if !resumed.isEmpty {
                return try expectOneRequest(
                    resumed, forPage: 1, after: "\(action), once the earlier request finished")
            }
        }
        let next = try await bottomReached()
        return try expectOneRequest(
            next, forPage: 1, after: "bottom reached after \(action)",
            hint: "After a query change or refresh the new query must be able to load its first "
                + "page: a flag left set by the old query's request blocks it.")
    }
}
