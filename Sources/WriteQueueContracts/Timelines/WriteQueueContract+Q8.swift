import ConformanceKit

extension WriteQueueContract {
    /// Q8 capped backoff keeps identity. Every request for op-1 gets a 503. Each delay, measured
    /// on the manual clock from the answer to the next request, must be positive and at most the
    /// declared cap (growing, fixed or randomised within it; the first retry is answered only
    /// after most of the request timeout, so a delay counted from a request's start shows; a
    /// new task is submitted during the third wait, which must not end it), every retry carries
    /// the same key and body, and a retry does come once it is due. A capped queue is retried 70 times: past
    /// the 64th attempt, where a doubling computed with a shift (`1 << attempt`) overflows into a
    /// negative or zero delay. Once the delay is steady (it sat at the cap twice, or, randomised,
    /// three retries in a row waited no longer than the longest before them), the transcript
    /// shows the remaining retries as one line, and a crash and relaunch follow.
    ///
    /// A queue that waits on the clock is measured exactly (the kit moves the clock to the
    /// deadline it waits for). A queue that keeps due times in storage and waits on nothing is
    /// measured by moving the clock in steps of 1/64 of the cap (at least 1 ms) and running a
    /// pass after each, so a delay is known to within one step, whatever the base and the cap;
    /// comparisons allow that step. A queue declared ``QueueBackoff/uncapped`` is measured until
    /// its delay stops growing or passes a day: with no ceiling, it fails.
    static func cappedBackoff<A>(_ h: QueueHarness<A>) async throws {
        let declared = h.capabilities.backoff
        guard declared.backsOff else { return }
        let cap = declared.cap
        let ceiling = Duration.seconds(24 * 3600)
        try await h.launch()
        let operation = h.operation(1)
        let stored = try await h.submit(operation)
        var send = try await h.nextSend(of: operation)
        try await h.noteStorageAtFirstSend(send, of: operation)
        let firstKey = send.request.idempotencyKey
        var delays: [Duration] = []
        // The clock step each delay was measured in (`nil`: measured exactly, at a wait's deadline).
        var steps: [Duration?] = []
        var atCap = 0
        /// The longest delay so far, and how many retries in a row have not waited longer.
        var longest = Duration.zero
        var notLonger = 0
        var flat = 0
        /// The retry from which the delay was steady (at the cap twice, or no longer growing).
        var steadyFrom: Int?
        /// How many retries the queue's own pass sent, waiting on the clock in between.
        var retriesInPass = 0
        for _ in 0..<(cap == nil ? 64 : Self.cappedRetries) {
            let previous = delays.last
            // Once the delay sits at the cap, a due-time queue is stepped in eighths of it: the
            // remaining retries look for a delay at once or past the cap, not for its shape.
            let resolution = steadyFrom == nil
                ? Self.resolution(cap: cap, previous: previous) : max(.milliseconds(1), (cap ?? .zero) / 8)
            if delays.count == 1 { try await answerSlowly(retry: send, h) }
            h.answer(send, .server(.answer(status: 503)))
            let answeredAt = h.clock.now
            if delays.count == 2 { try await submitDuringBackoff(h) }
            if delays.isEmpty {
                // The first 503 leaving the task as it was is Q2's rule; how the retries are
                // spaced, and that waiting never changes them, is this one's.
                try await h.settle()
                try await h.requireKeptAfterUnknownOutcome(operation, original: stored, sentAs: send, after: "a 503")
            }
            guard
                let retry = try await h.sendIfAny(
                    of: operation, clockStep: resolution,
                    stepLimit: cap.map { $0 * 2 } ?? min(ceiling * 2, (previous ?? .seconds(1)) * 8))
            else {
                throw try await retryMissing(after: delays.count, h, operation)
            }
            let delay = answeredAt.duration(to: h.clock.now)
            if cap != nil, h.lastSendNeededAPass, delay == .zero, retriesInPass == delays.count, !delays.isEmpty {
                // Every retry so far came from the pass itself, waiting on the clock; now the
                // pass gave up and returned with op-1 pending, and the next sync's pass sent it
                // at once. How often syncs run is the app's business: the backoff was measured.
                h.recorder.note(
                    "The pass gave up on op-1 after \(delays.count + 1) tries, and the next sync's pass sent it "
                        + "at once: the backoff inside the pass was measured, the pace of syncs is not this rule's.")
                send = retry
                break
            }
            if !h.lastSendNeededAPass { retriesInPass += 1 }
            send = retry
            delays.append(delay)
            steps.append(h.lastSendClockStep)
            let expected = delay > .zero && cap.map { delay <= $0 + resolution } ?? true
                && send.request.idempotencyKey == firstKey
            // A steady retry is shown in one line at the end; any other one as it happens.
            if steadyFrom == nil || !expected {
                if let from = steadyFrom {
                    // The steady retries before this one, then this one, so the transcript shows
                    // every retry up to the failing one.
                    Self.recordSteadyRetries(delays.dropLast(), steps: steps, from: from, h)
                    steadyFrom = nil
                }
                h.recorder.record(
                    "retry #\(delays.count) of op-1 after \(ManualClock.format(delay))"
                        + Self.withinStep(h.lastSendClockStep, of: delay))
            }
            let measured = (delays.count > 12 ? "…, " : "")
                + delays.suffix(12).map(ManualClock.format).joined(separator: ", ")
            if delay <= .zero {
                throw h.violation(
                    "Expected retry #\(delays.count) of op-1 to wait a positive delay, but it was sent "
                        + "at once.",
                    expected: "a delay > 0", actual: "delays so far: \(measured)",
                    hint: delays.count == 2
                        // Right after the slow 503 (see `answerSlowly`): the queue counted the
                        // delay from the moment the request started, which the slow answer had
                        // already used up (the thirty-fifth trial read the overflow hint here).
                        ? "Retry #1's 503 came slowly, most of the request timeout after the request started, and the "
                            + "queue resent at once: count the backoff delay from the answer, not from the moment the "
                            + "request started, or every slow failure is retried at once."
                        : delays.count > 2
                        ? "The backoff delay came out zero or negative after \(delays.count - 1) retries that waited: "
                            + "a growth that overflows (`1 << attempt` wraps at the 63rd shift, a power of 2 "
                            + "converted to an integer) does that. Clamp the exponent before computing the delay."
                        : "Schedule the retry on the injected clock (or a due date read from its `now`) with a backoff delay.")
            }
            if let cap, delay > cap + resolution {
                throw h.violation(
                    "Expected every retry delay to stay within the declared cap of "
                        + "\(ManualClock.format(cap)), but retry #\(delays.count) waited "
                        + "\(ManualClock.format(delay)).",
                    expected: "delays ≤ \(ManualClock.format(cap))", actual: "delays: \(measured)",
                    hint: "Clamp the backoff: min(cap, base × 2^attempt).")
            }
            // The key a retry carries is Q2's rule (or Q1's, for a key never stored).
            if send.request.idempotencyKey != firstKey {
                throw h.anotherKeyOnRetry(
                    of: operation.id, storedKey: h.storageAtFirstSend[operation.id]?.stored?.key,
                    firstKey: firstKey, retry: send, after: "a 503")
            }
            try h.expect(
                send, carries: firstKey, body: operation.body, of: operation,
                "waiting to keep op-1's key and body",
                hint: "Backoff changes when a task is sent, never what is sent.")
            if let cap {
                atCap = delay + resolution >= cap ? atCap + 1 : 0
                notLonger = delay > longest + resolution ? 0 : notLonger + 1
                longest = max(longest, delay)
                // Steady once it sat at the cap twice, or, randomised (a jittered delay seldom
                // meets its cap twice in a row), once three retries in a row waited no longer
                // than the longest before them: the growth is over, the cap holds it.
                if atCap == 2 || notLonger == 3, steadyFrom == nil { steadyFrom = delays.count + 1 }
            } else {
                let steady = previous.map { delay <= $0 + resolution } ?? false
                flat = steady ? flat + 1 : 0
                if flat == 2 || delay > ceiling { break }
            }
        }
        if let steadyFrom { Self.recordSteadyRetries(delays[...], steps: steps, from: steadyFrom, h) }
        if let cap, steadyFrom != nil {
            send = try await retryAfterRelaunch(of: operation, after: send, cap: cap, h)
        }
        if cap == nil {
            let all = "delays: " + delays.map(ManualClock.format).joined(separator: ", ")
            let last = delays.last.map(ManualClock.format) ?? "none"
            guard flat == 2 else {
                throw h.violation(
                    "Expected the retry delay to stop growing at a ceiling, but after \(delays.count) "
                        + "retries it was \(last) and still growing.",
                    expected: "a delay that stops at a cap", actual: all,
                    hint: "Clamp the backoff: min(cap, base × 2^attempt); a retry a day later is a "
                        + "task the user has given up on. Then declare .capped(at:).")
            }
            h.recorder.note(
                "The adapter declares backoff without a cap, but the delay stopped growing at \(last): "
                    + "declare QueueBackoff.capped(at: \(last)) so Q8 checks it against that cap.")
        }
        let task = try await h.persistedTask(for: operation)
        if let stored, let task, !h.identityChanges(from: stored, to: task, includingCreationTime: false).isEmpty {
            throw h.violation(
                "Expected waiting never to change op-1's identity, but the stored task changed.",
                expected: stored.description, actual: task.description,
                difference: h.identityChanges(from: stored, to: task, includingCreationTime: false).map { "~ \($0)" }.joined(separator: "\n"),
                hint: "Backoff changes when a task is sent, never what is sent.")
        }
        h.answer(send, .serve)
        try await h.drive { _ in .serve }
    }

    /// The server takes 9/10 of the declared request timeout to answer the first retry (an
    /// overloaded server's slow 503): the next delay is measured from the answer, so a queue
    /// that counts its backoff from the moment the request started resends at once (the
    /// sixteenth trial's `InspectionReportOutbox`).
    private static func answerSlowly<A>(retry send: ParkedSend, _ h: QueueHarness<A>) async throws {
        let timeout = h.capabilities.requestTimeout
        let held = timeout - timeout / 10
        try h.advanceClock(by: held)
        h.recorder.record(
            "advance clock by \(ManualClock.format(held)) while retry #1 of op-1 is in flight (the server "
                + "answers slowly, within the declared request timeout of \(ManualClock.format(timeout)))")
        try await h.settle()
    }

    /// A new task submitted while op-1 waits for its retry: whatever pass it starts sends it,
    /// and op-1 still waits its delay (a submit that makes every waiting task due, or a pass it
    /// starts that does not know the backoff another pass sleeps through, resends op-1 at once).
    private static func submitDuringBackoff<A>(_ h: QueueHarness<A>) async throws {
        try await h.settle()
        try await h.submit(h.operation(2))
    }

    /// After the delay was steady: one more 503, a crash, a relaunch. The queue may resend
    /// at once (a due time kept in memory is gone), but within twice the cap: a backoff rebuilt
    /// from a stored attempt count must be capped too (the fifteenth trial's `NoteSyncOutbox`
    /// waited 2^16 s after a relaunch). Twice, not once: a queue whose worker ticks sends at
    /// its first tick after the due time (`TickerOutbox`'s 15 s tick made 39 s of a 32 s cap, in
    /// some runs and not others). Returns the retry.
    private static func retryAfterRelaunch<A>(
        of operation: QueueOperation, after send: ParkedSend, cap: Duration, _ h: QueueHarness<A>
    ) async throws -> ParkedSend {
        h.answer(send, .server(.answer(status: 503)))
        try await h.settle()
        try await h.crash(restartingThePhone: true)
        try await h.launch()
        let relaunchedAt = h.clock.now
        let resolution = max(.milliseconds(1), cap / 16)
        guard
            let retry = try await h.sendIfAny(of: operation, clockStep: resolution, stepLimit: cap * 2)
        else {
            throw h.violation(
                "Expected op-1 to be retried within twice the declared cap of \(ManualClock.format(cap)) "
                    + "after a relaunch, but no pass sent it within \(ManualClock.format(cap * 2)).",
                expected: "a retry within \(ManualClock.format(cap * 2)) of the relaunch",
                actual: try await h.persistedTask(for: operation)?.description ?? "no task for op-1",
                hint: "Cap the delay wherever it is computed, also when it is rebuilt from a stored "
                    + "attempt count after a relaunch: min(cap, base × 2^attempt). Store due times as a "
                    + "time of day (Date), not in uptime seconds, which start over when the phone restarts.")
        }
        let delay = relaunchedAt.duration(to: h.clock.now)
        h.recorder.record("retry of op-1 after the relaunch: \(ManualClock.format(delay)) after it")
        if delay > cap * 2 {
            throw h.violation(
                "Expected the first retry after a relaunch within twice the declared cap of "
                    + "\(ManualClock.format(cap)), but it waited \(ManualClock.format(delay)).",
                expected: "a delay ≤ \(ManualClock.format(cap * 2))", actual: ManualClock.format(delay),
                hint: "Cap the delay wherever it is computed, also when it is rebuilt from a stored "
                    + "attempt count after a relaunch: min(cap, base × 2^attempt).")
        }
        return retry
    }

    /// Records retries `from` (numbered from 1) to the last of `delays` as one transcript line.
    private static func recordSteadyRetries<A>(
        _ delays: ArraySlice<Duration>, steps: [Duration?], from: Int, _ h: QueueHarness<A>
    ) {
        guard delays.count >= from else { return }
        let steady = delays[(delays.startIndex + from - 1)...]
        let shortest = ManualClock.format(steady.min() ?? .zero)
        let longest = ManualClock.format(steady.max() ?? .zero)
        let stepsTaken = Set(steps[steady.indices.clamped(to: steps.indices)])
        let step = stepsTaken.count == 1 ? stepsTaken.first ?? nil : nil
        h.recorder.record(
            "retries #\(from)–#\(delays.count) of op-1 after "
                + (shortest == longest ? "\(shortest) each" : "\(shortest) to \(longest)")
                + (step.map { " (the clock moved in \(ManualClock.format($0)) steps: each was due within the last one)" } ?? ""))
    }

    /// How a delay measured by stepping the clock reads: the queue's due time lies within the
    /// last step, so a reading up to one step past the cap is within it (for a queue that waits
    /// on the clock, the kit moves it to the deadline, and the reading is exact).
    private static func withinStep(_ step: Duration?, of delay: Duration) -> String {
        guard let step, step > .zero else { return "" }
        let earliest = max(.zero, delay - step)
        return " (due after more than \(ManualClock.format(earliest)): the clock moved in \(ManualClock.format(step)) steps)"
    }

    /// How many retries a capped queue gets: past the 64th attempt, where `1 << attempt`
    /// overflows.
    static let cappedRetries = 70

    /// How finely a due-time queue's delay is measured: 1/64 of the cap (or, with no cap
    /// declared, of 4 times the previous delay), and never below 1 ms.
    private static func resolution(cap: Duration?, previous: Duration?) -> Duration {
        let scale = cap ?? (previous ?? .seconds(1)) * 4
        return max(.milliseconds(1), scale / 64)
    }

    /// The stop for a retry that never came after a 503: the task left storage or stopped,
    /// which breaks Q2's rule (an unknown outcome keeps the task pending); otherwise the queue
    /// simply never retried, which is this rule's.
    private static func retryMissing<A>(
        after retries: Int, _ h: QueueHarness<A>, _ operation: QueueOperation
    ) async throws -> TimelineStop {
        let task = try await h.persistedTask(for: operation)
        guard let task, task.status == .pending || task.status == .inFlight else {
            if task == nil, let earlier = h.missingAtFirstSend(operation) { return earlier }
            return h.blocked(
                by: "Q2",
                "Expected op-1 to stay pending after a 503 (the outcome is unknown), but it is "
                    + (task.map { $0.status.rawValue } ?? "gone from storage") + ".",
                expected: "op-1 pending", actual: task?.description ?? "no task for op-1",
                hint: "Only an explicit success removes a task; a 503 may have been written.")
        }
        // How long the kit waited: twice the declared cap (the seventh outside round's breaker
        // held every task for a cool-down that doubled past the cap, and the message named no
        // time at all).
        let waited = h.capabilities.backoffCap.map { " within twice the declared \(ManualClock.format($0)) cap" } ?? ""
        return h.violation(
            "Expected op-1 to be retried after a 503 once its backoff delay passed, but after "
                + "\(retries) retries no pass sent it again\(waited).",
            expected: "a retry with the same key" + (waited.isEmpty ? "" : waited), actual: task.description,
            hint: "A pending task must become due again within the declared cap: check the due time the queue "
                + "stores, and any wait that holds every task (a circuit breaker's cool-down, a global "
                + "rate limit), which the cap bounds too.")
    }
}
