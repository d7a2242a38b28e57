import ConformanceKit

extension ScheduleExecution {
    /// The most answers the liveness check gives before it stops judging: a fill-the-screen
    /// chain that still asks for pages after this many is not a liveness failure.
    static let livenessAnswers = 16

    /// Liveness at the schedule's bounded end: what should happen eventually does.
    ///
    /// Once the schedule's steps ran, the kit answers every open request (oldest first, each
    /// with two fresh items and more pages to come, so no end and no stall is reached), then:
    /// - with nothing in flight, the loading state must have ended: P6 when the current page's
    ///   last answer was a failure (a cancellation error of the live request swallowed is the
    ///   bug this finds);
    /// - unless the list ended (last page, stalled cursor, a declared stop, a protocol error
    ///   shown, or `hasMore: false` shown), a bottom trigger, or else a retry, must start a
    ///   request: P6 while an error is shown or the current page failed.
    ///
    /// Otherwise the finding is P4 when the schedule gave an earlier query's answer since this
    /// query began (it moved what the snapshot does not show, such as `hasMore`), P3 when it
    /// delivered a page again, and P1 ("the next trigger starts exactly one request") else.
    ///
    /// Every answer and trigger goes through ``apply(_:)``, so the invariants are checked on
    /// the way and the transcript shows them. Nothing is judged when a trigger could not be
    /// observed or the chain of loads outlasts ``livenessAnswers``. The contract is named
    /// from the schedule's own steps, never from the answers given here (a stale page answered
    /// while draining is not what left the loading state set).
    func checkLiveness() async throws {
        recorder?.record("liveness: answer every open request, then a trigger must still work")
        // Named from the schedule's own steps: an earlier query's answer or a repeated one
        // given there may have moved what the state does not show (P4, P3).
        let otherwise = cause(otherwise: "P1")
        var answers = 0
        while let open = unanswered.first, answers < Self.livenessAnswers {
            answers += 1
            let fresh = [100 + 2 * open.number, 101 + 2 * open.number]
            guard try await apply(.deliver(request: open.number, rows: fresh)) else { return }
        }
        guard unanswered.isEmpty else { return }
        let failed = failedPosition != nil
        if state.isLoading == true {
            throw livenessFailure(
                failed ? "P6" : otherwise,
                "Expected the loading state to end once nothing is in flight, but it stays set after every request was answered"
                    + (failed ? " (the current page's last answer was a failure)." : "."),
                expected: "loading false (no request in flight)", actual: "state: \(state)",
                hint: failed
                    ? "Clear the loading state on every failure of the request in flight, cancellation errors included: only a non-current request's answer may be ignored."
                    : "Clear the loading state when the request in flight is answered, and set it only when a request starts.")
        }
        guard end == nil, state.hasMore != false, state.hasProtocolError != true else { return }
        let before = requests.count
        guard try await apply(.bottomReached) else { return }
        if requests.count > before { return }
        guard try await apply(.retry) else { return }
        if requests.count > before { return }
        let inError = failed || state.showsError == true
        throw livenessFailure(
            inError ? "P6" : otherwise,
            "Expected a bottom trigger or a retry to start a request once nothing is in flight and more pages exist, but neither started one.",
            expected: "a request for \(usesCursors ? "the next cursor" : "page \(acceptedPages + 1)") of query \(query)",
            actual: "requests: none; state: \(state)",
            hint: inError
                ? "After a failure of the current page, retry (or the bottom trigger) must request that page again."
                : "Reset whatever guards a new load (an in-flight flag, a task handle) when the request in flight is answered, whatever the answer.")
    }

    private func livenessFailure(
        _ contract: ContractID, _ summary: String, expected: String, actual: String, hint: String
    ) -> Failure {
        let title = ContractCatalog.descriptor(contract)?.title ?? contract.rawValue
        return Failure(
            invariant: contract,
            violation: Violation(
                tier: ContractCatalog.descriptor(contract)?.tier ?? .required,
                summary: "\(title) (liveness at the schedule's end): \(summary)", expected: expected,
                actual: actual, hint: hint, step: stepsTaken))
    }
}
