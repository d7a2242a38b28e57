import ConformanceKit

extension ScheduleExecution {
    /// The most answers the liveness check gives before it stops judging: a fill-the-screen
    /// chain that still asks for pages after this many is not a liveness failure.
    static let livenessAnswers = 16

    /// Liveness at the schedule's bounded end: what should happen eventually does.
    ///
    /// Once the schedule's steps ran, the kit answers the current query's open requests (oldest
    /// first, each with two fresh items and more pages to come, so no end and no stall is
    /// reached), then:
    /// - with nothing in flight, the loading state must have ended;
    /// - unless the list ended (last page, stalled cursor, a declared stop, a protocol error
    ///   shown, or `hasMore: false` shown right after a page that added nothing new, a stop on
    ///   no progress that the fixed P12 judges), a bottom trigger, or else a retry, must start a
    ///   request. `hasMore: false` shown after a page that added items while the server said
    ///   more ends nothing: a pager that reads the end from a short page (`rows.count <
    ///   pageSize`) passed every schedule of an outside trial.
    ///
    /// The finding is named by the schedule's last step of this query that may have moved what
    /// the snapshot does not show: a failure of the current page, P6 (a cancellation error of
    /// the live request swallowed is the bug this finds); an earlier query's answer, P4 (it
    /// set a flag or `hasMore`); a page delivered again, P3. With none of them, P7 when the
    /// pager still shows the end of an earlier generation's list (`hasMore: false` with no page
    /// of this generation accepted: a query change that resets everything but `hasMore`), else
    /// P1 ("the next trigger starts exactly one request").
    ///
    /// When the pager is stuck and an earlier query's request is still open, the kit answers
    /// those too (a pager may wait for them) and judges again; still stuck, the first verdict
    /// stands. Every answer and trigger goes through ``apply(_:)``, so the invariants are checked on
    /// the way and the transcript shows them. Nothing is judged when a trigger could not be
    /// observed or the chain of loads outlasts ``livenessAnswers``. The contract is named
    /// from the schedule's own steps, never from the answers given here (a stale page answered
    /// while draining is not what left the loading state set).
    func checkLiveness() async throws {
        recorder?.record("liveness: answer the current query's open requests, then a trigger must still work")
        // Named from the schedule's own steps, never from the answers given here: the last one
        // that may have moved what the state does not show (a failure of the current page, an
        // earlier query's answer, a page delivered again), else P1.
        let suspect = lastSuspect ?? "P1"
        guard try await answerOpenRequests(ofEarlierQueries: false) else { return }
        guard let verdict = try await livenessVerdict(naming: suspect) else { return }
        // A pager may wait for an earlier query's request before it loads (a serial request
        // queue): answer those too, and judge again. Still stuck, the first verdict stands;
        // it saw the pager before any answer the check gave to a non-current request.
        guard openNumbers.contains(where: { requests[$0 - 1].generation != generation }) else { throw verdict }
        recorder?.record("liveness: answer the earlier queries' open requests too (a pager may wait for them)")
        guard try await answerOpenRequests(ofEarlierQueries: true) else { return }
        if try await livenessVerdict(naming: suspect) != nil { throw verdict }
    }

    /// Answers open requests, oldest first, each with two fresh items and more to come: the
    /// current query's only, or every one.
    /// - Returns: `false` when nothing can be judged (a step was skipped, or a chain of loads
    ///   outlasts ``livenessAnswers``).
    private func answerOpenRequests(ofEarlierQueries: Bool) async throws -> Bool {
        var answers = 0
        while let number = openNumbers.first(where: { ofEarlierQueries || requests[$0 - 1].generation == generation }) {
            guard answers < Self.livenessAnswers else { return false }
            answers += 1
            guard try await apply(.deliver(request: number, rows: [100 + 2 * number, 101 + 2 * number])) else {
                return false
            }
        }
        return true
    }

    /// The liveness failure the pager shows now, or `nil` when it is alive or nothing can be
    /// judged: a loading state set with none of the current query's requests open, or no
    /// bottom trigger nor retry that starts a request while the list goes on.
    private func livenessVerdict(naming contract: ContractID) async throws -> Failure? {
        let failed = contract == "P6"
        // Still showing the end of an earlier generation's list: the new query never started.
        // Whatever step came last (a failure of the new list's first request, a stale answer),
        // a pager that never showed more pages since the refresh or query change kept the old
        // end (a refresh that does not reset `hasMore` was named P6 or P4 by its last step).
        // A failure of the current page hidden (no error shown) is P6's, whatever end it shows.
        let endCarriedOver =
            (contract == "P1" || !showedMoreThisGeneration) && earlierListEnded && acceptedPages == 0
            && state.hasMore == false && !(failed && hidesTheCurrentFailure)
        // The end an earlier visit of this query's name reached: a per-query cache resumed it
        // (P4's, as the fixed timeline names a resumed position), not a hasMore never reset.
        // After a refresh the end is the same query's by definition, and a refresh starts a new
        // list (P7).
        let visitResumed = endCarriedOver && !generationIsRefresh && resumedVisit(atPage: 1)
        let contract: ContractID = visitResumed ? "P4" : endCarriedOver ? "P7" : contract
        if state.isLoading == true {
            return livenessFailure(
                contract,
                "Expected the loading state to end once the requests in flight are answered, but it stays set"
                    + (failed ? " (the current page's last answer was a failure)." : "."),
                expected: "loading false (no request of query \(query) in flight)", actual: "state: \(state)",
                hint: failed
                    ? "Clear the loading state on every failure of the request in flight, cancellation errors included: only a non-current request's answer may be ignored."
                    : "Clear the loading state when the request in flight is answered, and set it only when a request starts.")
        }
        // Only the server ends a list: `hasMore: false` shown before the first page, or after a
        // page that said more, says nothing the server said.
        guard end == nil, state.hasProtocolError != true else { return nil }
        // Ended on a page that added nothing new: a stop on no progress, which the fixed P12
        // judges against what the adapter declares (a photo grid that ends on an empty page).
        if state.hasMore == false, acceptedPages > 0, pagesWithoutProgress > 0 { return nil }
        // Back on the list before a refresh its own cancellation error abandoned, which had ended.
        if showsTheEndedListBeforeAnAbandonedRefresh { return nil }
        let endMisread = contract == "P1" && acceptedPages > 0 && state.hasMore == false
        let before = requests.count
        guard try await apply(.bottomReached) else { return nil }
        if requests.count > before { return nil }
        guard try await apply(.retry) else { return nil }
        if requests.count > before { return nil }
        return livenessFailure(
            contract,
            "Expected a bottom trigger or a retry to start a request once nothing of query \(query) is in flight and more pages exist, but neither started one."
                + (endMisread ? " The pager shows hasMore false, though the last page it accepted said more pages exist." : ""),
            expected: "a request for "
                + (acceptedPages == 0
                    ? "the first page" : usesCursors ? "the next cursor" : "page \(acceptedPages + 1)")
                + (failed ? " (the page that failed)" : "") + " of query \(query)",
            actual: "requests: none; state: \(state)",
            hint: failed
                ? "After a failure of the current page, retry (or the bottom trigger) must request that page again."
                : visitResumed
                ? PagerTimeline.revisitHint
                : endMisread
                ? PagerTimeline.misreadEndHint
                : endCarriedOver
                ? "The end of a list belongs to its query: a query change or refresh starts a new list, so reset hasMore with the rest."
                : "Reset whatever guards a new load (an in-flight flag, a task handle) when the request in flight is answered, whatever the answer.")
    }

    private func livenessFailure(
        _ contract: ContractID, _ summary: String, expected: String, actual: String, hint: String
    ) -> Failure {
        let title = ContractCatalog.descriptor(contract)?.title ?? contract.rawValue
        // Searched and shrunk as one liveness finding, named on the shrunk schedule: a step
        // that did not cause the stuck state (a page delivered again after the failure that
        // did) is dropped there, and the step left last names the rule.
        return Failure(
            invariant: contract,
            violation: Violation(
                tier: ContractCatalog.descriptor(contract)?.tier ?? .required,
                summary: "\(title) (liveness at the schedule's end): \(summary)", expected: expected,
                actual: actual, hint: hint, step: stepsTaken),
            key: "liveness")
    }
}
