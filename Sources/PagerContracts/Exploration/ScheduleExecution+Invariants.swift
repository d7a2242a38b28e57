import ConformanceKit

/// The invariants I1–I6, checked as the pager starts a request and on the snapshot after every
/// step, against the oracle of what the kit delivered and accepted.
extension ScheduleExecution {
    func failure(
        _ id: ContractID, tier: ContractTier = .required, _ summary: String, expected: String? = nil,
        actual: String? = nil, difference: String? = nil, hint: String? = nil
    ) -> Failure {
        let title = ContractCatalog.descriptor(id)?.title ?? id.rawValue
        return Failure(
            invariant: id,
            violation: Violation(
                tier: tier, summary: "\(title): \(summary)", expected: expected, actual: actual,
                difference: difference, hint: hint, step: stepsTaken))
    }

    /// I1, I5, I6 and the position part of I3/I4, checked as the pager starts a request.
    func checkNewRequest(_ request: Request) -> Failure? {
        if let end {
            return failure(
                "I5", tier: end.tier,
                "Expected no request after the end of the list (\(end.description)), but the pager started \(describe(request)).",
                expected: "requests: none until a query change or refresh",
                actual: "requests: \(describe(request))",
                hint: "Check hasMore (and the protocol-error stop) before starting a request, for every trigger: bottom reached, retry and explicit loads.")
        }
        if let running = requests.first(where: { $0.generation == generation && $0.answer == nil }) {
            return failure(
                "I1",
                "Expected at most one request in flight for query \(query), but the pager started \(describe(request)) while \(describe(running)) is still unanswered.",
                expected: "in flight: \(describe(running))",
                actual: "in flight: \(describe(running)), \(describe(request))",
                hint: "Keep the in-flight ticket until its own answer arrives: a duplicate trigger, a stale answer or a cancellation error of an old request must not clear it.")
        }
        let expected: PagePosition = usesCursors ? .cursor(lastAcceptedCursor) : .page(acceptedPages + 1)
        guard request.position != expected else { return nil }
        if let failedPosition {
            return failure(
                "I6",
                "Expected the request after the failure of \(failedPosition) to ask for \(failedPosition) again, but it asked for \(request.position).",
                expected: "position: \(failedPosition)", actual: "position: \(request.position)",
                hint: "A failure must not advance the page position; retry re-requests the page that failed.")
        }
        if case .cursor(let cursor?) = request.position, let origin = cursorGenerations[cursor], origin != generation {
            return failure(
                "I4",
                "Expected \(describe(request)) to carry \(expected), but it carries a cursor from a response of generation \(origin), a non-current query: its page would show that query's items.",
                expected: "position: \(expected)", actual: "position: \(request.position)",
                hint: "Store a response's cursor only after its ticket matched the request in flight.")
        }
        return failure(
            "I3",
            "Expected the next request to continue the list at \(expected) after \(acceptedPages) accepted page(s), but it asked for \(request.position): the visible list would leave the server's order.",
            expected: "position: \(expected)", actual: "position: \(request.position)",
            hint: "Advance the page position (or store the cursor) once per accepted response, never for a repeated or stale one.")
    }

    /// I2, I4 and I3, checked on the snapshot after every step.
    func checkState(before: PagerState, staleAnswer: Request?, startedCurrentRequest: Bool = false) throws {
        var seen: Set<VisibleItem> = []
        let duplicates = state.visible.filter { !seen.insert($0).inserted }
        if !duplicates.isEmpty {
            throw failure(
                "I2",
                "Expected no duplicate visible IDs, but \(Self.list(duplicates)) \(duplicates.count == 1 ? "is" : "are") shown twice.",
                actual: "visible: \(state.visibleList)",
                hint: "De-duplicate by item ID against everything visible, and inside the page.")
        }
        if let stale = staleAnswer {
            var changes = state.changes(since: before)
            // At the async level a trigger still running when the query changed (a
            // fill-the-screen loop woken by its stale answer) may go on and load the current
            // query's next page: that request passed I1, I3 and I5 when it started, and the
            // loading state it shows is the current query's, not the stale answer's.
            if startedCurrentRequest, before.isLoading == false, state.isLoading == true {
                changes.removeAll { $0.hasPrefix("loading changed") }
            }
            if !changes.isEmpty {
                throw failure(
                    "I4",
                    "Expected the answer to \(describe(stale)), from a non-current query, to change nothing, but \(changes.joined(separator: " and ")).",
                    expected: "state: \(before)", actual: "state: \(state)",
                    difference: listDifference(expected: before.visible, actual: state.visible),
                    hint: "Compare the answer's ticket (generation and page, or cursor) with the request in flight before touching any state; cancelling the old request proves nothing.")
            }
        }
        let wanted = accepted.map(VisibleItem.row)
        if state.visible == wanted { return }
        if acceptedPages == 0 && (state.visible.isEmpty || state.visible == generationStartVisible) { return }
        let allowed = acceptedPages == 0 ? acceptedSet.union(Self.rows(generationStartVisible)) : acceptedSet
        let intruders = state.visible.filter {
            if case .row(let id) = $0 { return !allowed.contains(id) && staleRows.contains(id) }
            return false
        }
        if !intruders.isEmpty {
            throw visibleListFailure(
                "I4",
                "Expected only items of query \(query) to be visible, but \(Self.list(intruders)) came from an answer to a request of a non-current query.",
                wanted: wanted, hint: "Check the ticket's generation before appending an answer.")
        }
        throw visibleListFailure(
            "I3",
            "Expected the visible list to be the accepted pages' items, de-duplicated, in server order, \(Self.list(wanted)), but it is \(state.visibleList).",
            wanted: wanted,
            hint: "Append each accepted page at once, keep the server's order, and accept a response only once.")
    }

    /// A failure whose evidence is the visible list against `wanted` (the items of `source`,
    /// when they come from somewhere other than the kit's oracle).
    func visibleListFailure(
        _ id: ContractID, _ summary: String, wanted: [VisibleItem], from source: String? = nil,
        hint: String
    ) -> Failure {
        failure(
            id, summary, expected: "visible: \(Self.list(wanted))" + (source.map { " (\($0))" } ?? ""),
            actual: "visible: \(state.visibleList)",
            difference: listDifference(expected: wanted, actual: state.visible), hint: hint)
    }

    static func rows(_ items: [VisibleItem]) -> Set<Int> {
        Set(items.compactMap { if case .row(let id) = $0 { id } else { nil } })
    }

    static func list(_ items: [VisibleItem]) -> String {
        "[" + items.map(\.description).joined(separator: ", ") + "]"
    }
}
