import ConformanceKit

extension WriteQueueContract {
    /// Q7 single sender. Two sending passes start together on one instance (foreground resume
    /// and background sync); while either has a request parked, no task may have two requests
    /// in flight. Then, with a request still in flight, the clock moves to just inside the
    /// declared request timeout (past any shorter send lease) and a later sync starts a third
    /// pass: it must not send that task again either. So does every request a pass starts later
    /// (a task sent after the one before it was answered): the clock moves again, within that
    /// request's own timeout, and another later sync starts, so a lease stamped once for a whole
    /// batch, when the pass claimed it, must still cover the last task's request. With shared
    /// storage declared, two instances over one storage are checked too, the second one starting
    /// after the clock moved.
    static func singleSender<A>(_ h: QueueHarness<A>) async throws {
        try await h.launch()
        let first = h.operation(1)
        let second = h.operation(2)
        try await h.submit(first)
        try await h.submit(second)
        try startTwoPassesTogether(h)
        try await laterSyncWhileInFlight(h, on: nil)
        try await driveCheckingSingleSender(h, laterSyncOn: nil)
        try await laterSyncTakesFailedTask(h)
        try await passesStartedTogetherAgain(h)

        guard h.capabilities.sharesStorageBetweenInstances else {
            h.recorder.note("Storage is not declared shared: only two passes on one instance were checked.")
            return
        }
        let appInstance = h.currentInstance
        let extensionInstance = try await h.launch(alongside: true)
        let third = h.operation(3)
        try await h.submit(third, on: appInstance)
        try h.startPass(on: appInstance)
        try await laterSyncWhileInFlight(h, on: extensionInstance)
        try await driveCheckingSingleSender(h, laterSyncOn: extensionInstance)
    }

    /// Starts two sending passes whose first jobs run as `release` says: back to back on one
    /// thread (a pass rarely can finish a claim on a thread of the queue's own before the other
    /// has begun), or each on a thread of its own, let go at once (a claim checked and taken in
    /// two steps races on two cores).
    private static func startTwoPassesTogether<A>(
        _ h: QueueHarness<A>, release: FirstJobsRelease = .backToBack
    ) throws {
        try h.stage.startingTogether(release: release) {
            try h.startPass()
            try h.startPass()
        }
    }

    /// How many times two passes start together in all: once at the start, the rest at the end.
    static let passesStartedTogether = 24

    /// Starts two passes together again, over two new tasks each time, and drives them, the
    /// first jobs back to back and on threads of their own in turn. Which of two threads wins a
    /// race is the operating system's choice: on a machine as loaded as the matrix's, a queue
    /// that checks its in-flight set on one hop of its own `DispatchQueue` and marks it on a
    /// later one (the ninth outside round's `SerialQueueOutbox`) sent a task once, not twice, at
    /// 35 of 180 starts back to back and 64 of 180 on two threads, at most 3 and 7 starts in a
    /// row; five starts missed it in 1 of 72 matrix runs. Each start is another chance to
    /// see the race; a correct queue never sends a task twice, however often. Rounds that saw
    /// nothing wrong are summed up in one step, so a failure shows the round that failed.
    private static func passesStartedTogetherAgain<A>(_ h: QueueHarness<A>) async throws {
        let cleanSince = h.recorder.lastStep
        for round in 2...passesStartedTogether {
            let release: FirstJobsRelease = round.isMultiple(of: 2) ? .atOnceOnOwnThreads : .backToBack
            let how = release == .backToBack ? "back to back" : "on two threads at once"
            h.recorder.record(
                "— two passes started together again (\(round) of \(passesStartedTogether), first jobs "
                    + "\(how)): which thread wins a race is the system's choice —")
            let first = 2 * round + 2
            for number in [first, first + 1] { try await h.submit(h.operation(number)) }
            try startTwoPassesTogether(h, release: release)
            try await driveCheckingSingleSender(h, laterSyncOn: nil)
            let rounds = round == 2 ? "round 2" : "rounds 2–\(round)"
            h.recorder.collapse(
                after: cleanSince,
                into: "— two passes started together again in \(rounds) of \(passesStartedTogether) "
                    + "(\(h.operation(6).id) to \(h.operation(first + 1).id)): "
                    + "no task was in flight twice —")
        }
    }

    /// A pass whose first request fails (503) moves on; the clock passes that task's backoff
    /// (within the next request's timeout) and a later sync takes the failed task. The first
    /// pass, back from its other task, must not send it again: a claim it releases for the
    /// whole batch at the end (`claimed.subtract(batch)`) also releases the later sync's (the
    /// twenty-third trial's `BatchedEventsUploader`, found by the explorer, passed every fixed
    /// timeline).
    private static func laterSyncTakesFailedTask<A>(_ h: QueueHarness<A>) async throws {
        h.recorder.record("— a later sync takes a task that failed while its pass went on to the next one —")
        for number in [4, 5] { try await h.submit(h.operation(number)) }
        try h.startPass()
        try await h.settle("the pass to park a request, or wait on the clock")
        guard let failed = h.openSends.first else { return }
        h.answer(failed, .server(.answer(status: 503)))
        try await h.settle("the pass to go on to the next task, wait on the clock, or return")
        try await checkSingleSender(h.openSends, h)
        let inFlight = h.openSends.first.map { "send #\($0.number)" } ?? "nothing"
        try startLaterSync(h, whileInFlight: inFlight, on: nil)
        try await driveCheckingSingleSender(h, laterSyncOn: nil)
    }

    /// With a request in flight, moves the clock to 9/10 of the declared request timeout and
    /// starts a sending pass on `instance` (the latest when `nil`), as a later sync would.
    private static func laterSyncWhileInFlight<A>(_ h: QueueHarness<A>, on instance: Int?) async throws {
        try await h.settle("the passes to return, park a request, or wait on the clock")
        // Judged before the later sync starts, so a failure points at the passes that sent
        // twice, not at the later sync (the twenty-sixth trial's uploader: ▶ on step 11, the
        // double send at step 8).
        try await checkSingleSender(h.openSends, h)
        guard let inFlight = h.openSends.first else {
            if let instance { try h.startPass(on: instance) }
            return
        }
        try startLaterSync(h, whileInFlight: "send #\(inFlight.number)", on: instance)
    }

    /// Moves the clock to 9/10 of the declared request timeout, with `inFlight` in flight, and
    /// starts a sending pass on `instance` (the latest when `nil`), as a later sync would.
    private static func startLaterSync<A>(_ h: QueueHarness<A>, whileInFlight inFlight: String, on instance: Int?) throws {
        let timeout = h.capabilities.requestTimeout
        let moved = timeout - timeout / 10
        try h.advanceClock(by: moved)
        h.recorder.record(
            "advance clock by \(ManualClock.format(moved)) while \(inFlight) is in flight "
                + "(within the declared request timeout of \(ManualClock.format(timeout)))")
        try h.startPass(on: instance, label: "later sync's sending pass")
    }

    /// Answers every request (success), checking after every settle that no task has two
    /// requests in flight. A request that starts after the clock last moved, with no older one
    /// still in flight, gets its own later sync (on `instance`, the latest when `nil`): the clock
    /// moves to 9/10 of the request timeout from its start, never past an older request's.
    private static func driveCheckingSingleSender<A>(_ h: QueueHarness<A>, laterSyncOn instance: Int?) async throws {
        // The requests in flight when the clock last moved (the first later sync's), and every
        // request given a later sync of its own.
        var seenBeforeMove = Set(h.openSends.map(\.number))
        var syncedLater = 0
        for _ in 0..<32 {
            try await h.settle("both passes to return, park a request, or wait on the clock")
            var open = h.openSends
            if syncedLater < 2, !open.isEmpty, open.allSatisfy({ !seenBeforeMove.contains($0.number) }) {
                // Requests this old (started at this instant): moving the clock within the
                // timeout is fair to each of them.
                try await checkSingleSender(open, h)
                syncedLater += 1
                try startLaterSync(
                    h, whileInFlight: "send #\(open[0].number), started after the last one was answered,", on: instance)
                try await h.settle("the later sync's pass to return, park a request, or wait on the clock")
                open = h.openSends
                seenBeforeMove.formUnion(open.map(\.number))
            }
            try await checkSingleSender(open, h)
            if let send = open.first {
                seenBeforeMove.insert(send.number)
                h.answer(send, .serve)
                // What is still in flight started before this answer: the clock must not move
                // past its timeout.
                seenBeforeMove.formUnion(open.map(\.number))
            } else if try h.running.isEmpty || !h.advanceToNextWake() {
                return
            } else {
                // The clock moved for a backoff: what is in flight now started after it.
                seenBeforeMove = Set(h.openSends.map(\.number))
            }
        }
        throw h.violation(
            "Expected two passes over a few tasks to finish within 32 steps, but they kept going.",
            expected: "every pass returned", actual: "\(h.running.count) trigger(s) still running",
            hint: "Check that a completed task is never sent again.")
    }

    /// `send #1, send #3 (both from trigger #4)`, or each send with its own origin.
    private static func sendsWithOrigins<A>(_ sends: [ParkedSend], _ h: QueueHarness<A>) -> String {
        let origins = sends.map { h.origin(of: $0) }
        if let origin = origins.first, origins.allSatisfy({ $0 == origin }) {
            return sends.map { "send #\($0.number)" }.joined(separator: ", ") + " (\(sends.count == 2 ? "both" : "all") \(origin))"
        }
        return zip(sends, origins).map { "send #\($0.number) (\($1))" }.joined(separator: ", ")
    }

    /// Fails when some task has two requests in `open`.
    private static func checkSingleSender<A>(_ open: [ParkedSend], _ h: QueueHarness<A>) async throws {
        var byOperation: [String: [ParkedSend]] = [:]
        for send in open { byOperation[h.operationLabel(for: send.request.body), default: []].append(send) }
        // The operation whose doubled send came first, so the message is the same on every
        // run (a dictionary's order is not).
        if let (label, twice) = byOperation.filter({ $0.value.count > 1 })
            .min(by: { $0.value[1].number < $1.value[1].number })
        {
            let hint = "Take a send lease for the task (in the persistence layer when instances "
                + "share storage) before sending, and skip leased tasks: mark the task as sending "
                + "in the same step that picks it, before the first await or hop to another queue."
            let note = await h.ownQueuesNote()
            throw h.violation(
                "Expected at most one request for \(label) in flight, but \(twice.count) were "
                    + "in flight at once.",
                expected: "1 request for \(label)",
                actual: sendsWithOrigins(twice, h),
                hint: note.map { hint + " " + $0 } ?? hint)
        }
    }
}
