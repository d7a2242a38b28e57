extension WriteQueueContract {
    /// Q2 unknown outcome keeps the task: a dropped connection, a timeout, a 503, a 500, a 502
    /// and a 504 in a row each leave the task pending with the same identity (a gateway's 502
    /// or 504 is a 5xx too: a queue that lists only 500 and 503 as retryable stops on them).
    /// After the dropped connection the phone stays offline for ``daysOffline`` days: the retry
    /// that follows must still carry the task's key (a queue that renews a key its server may
    /// have forgotten counts from when it made the key, the server from when it first received
    /// it; the seventeenth trial's queue renewed keys 71 h old and charged a card twice).
    /// Last, the request is cancelled on the phone (`URLError(.cancelled)`, an app that cancels
    /// its data task as it goes to the background): a cancelled request may have been written
    /// too, so the task stays and a later pass resends it (the eighteenth trial's
    /// `PunchClockOutbox` returned from its handler on a cancellation before releasing the task
    /// and its drain, and never sent the punch again).
    /// A queue that merges updates is also given an edit to an update whose outcome is unknown,
    /// after a 503 and after a crash while its request was in flight: the merge must not reach
    /// it.
    static func unknownOutcomeKeepsTask<A>(_ h: QueueHarness<A>) async throws {
        try await h.launch()
        let operation = h.operation(1)
        var original = try await h.submit(operation)
        let unknowns: [(SendAnswer, String)] = [
            (.lost(.connectionLost), "a dropped connection"),
            (.lost(.timedOut), "a timeout"),
            (.server(.answer(status: 503)), "a 503"),
            (.server(.answer(status: 500)), "a 500"),
            (.server(.answer(status: 502)), "a 502"),
            (.server(.answer(status: 504)), "a 504"),
            (.cancelled, "a request cancelled on the phone"),
        ]
        var firstKey: String? = nil
        for (index, (answer, name)) in unknowns.enumerated() {
            let send = try await h.nextSend(of: operation)
            if index == 0 {
                try await h.noteStorageAtFirstSend(send, of: operation)
                firstKey = send.request.idempotencyKey
            } else if send.request.idempotencyKey != firstKey {
                let afterDays = index == 1
                throw h.anotherKeyOnRetry(
                    of: operation.id, storedKey: h.storageAtFirstSend[operation.id]?.stored?.key,
                    firstKey: firstKey, retry: send,
                    after: afterDays ? "\(unknowns[0].1) and \(daysOffline) days offline" : unknowns[index - 1].1,
                    judgedHere: true,
                    hint: afterDays
                        ? "Keep a task's key however long it waits: a server keeps a key for a time counted from "
                            + "when it first received it, so a key renewed after a lost response makes a second record."
                        : nil)
            }
            h.answer(send, answer)
            if answer == .cancelled {
                let wentOn = try await h.settleOrFindStalled(
                    "the sending pass to go on after op-1's request was cancelled on the phone")
                guard wentOn else {
                    throw h.violation(
                        "Expected the sending pass to go on after op-1's request was cancelled on the phone "
                            + "(the outcome is unknown), but it neither returned, nor sent, nor waits on the "
                            + "clock: nothing will send op-1 again.",
                        expected: "the pass returns (or goes on), op-1 pending, retried later",
                        actual: h.stage.stateDescription,
                        hint: "Handle a cancelled request as an unknown outcome: release the task (and whatever "
                            + "runs the drain) on every path, the cancellation's included, and retry it later "
                            + "with the same key; it may have been written.")
                }
            } else {
                try await h.settle()
            }
            let now = try await keptAfterUnknownOutcome(operation, original: original, after: name, h)
            original = original ?? now
            h.recorder.record("storage: op-1 still pending, key \(h.short(now.key)), attempts \(now.attempts)")
            if index == 0 {
                try h.advanceClock(
                    by: .seconds(daysOffline * 86_400),
                    recording: "advance clock by \(daysOffline) days (the phone stays offline)")
            }
        }
        // A long outage: the same task meets an unknown outcome again and again, as it does in a
        // week in a basement. A queue may reorder its tasks however it likes, but not by
        // rewriting one's identity (the nineteenth trial's `MutationJournal` reset a task's
        // creation time every tenth failure in a row, to send it after the others).
        h.recorder.record("a long outage: op-1 meets \(longOutage) more 503s in a row, a later sync past the backoff before each retry")
        for count in 1...longOutage {
            try h.advancePastLongestBackoff()
            // A retry that does not come within the longest declared backoff is Q8's to judge.
            guard let send = try await h.sendIfAny(of: operation) else {
                h.recorder.record("op-1 was not retried within the declared backoff: how long a queue waits is Q8's rule")
                break
            }
            if send.request.idempotencyKey != firstKey {
                throw h.anotherKeyOnRetry(
                    of: operation.id, storedKey: h.storageAtFirstSend[operation.id]?.stored?.key,
                    firstKey: firstKey, retry: send, after: "\(unknowns.count + count - 1) unknown outcomes in a row",
                    judgedHere: true)
            }
            h.answer(send, .server(.answer(status: 503)))
            try await h.settle()
            _ = try await keptAfterUnknownOutcome(
                operation, original: original, after: "\(unknowns.count + count) unknown outcomes in a row", h)
        }
        try await h.drive { _ in .serve }
        if h.capabilities.coalescesUpdates {
            try await editAfterUnknownOutcomeStaysApart(h)
            try await editAfterCrashStaysApart(h)
            try await editWhileInFlightStaysApart(h)
        }
    }

    /// The stored task of `operation` after an unknown outcome named `name`: still there,
    /// pending, with its identity unchanged since `original` (the first reading).
    private static func keptAfterUnknownOutcome<A>(
        _ operation: QueueOperation, original: PersistedTask?, after name: String, _ h: QueueHarness<A>
    ) async throws -> PersistedTask {
        guard let now = try await h.persistedTask(for: operation) else {
            // Missing while its first request was in flight, the task was lost by sending
            // (Q1's rule), not by this answer.
            if let earlier = h.missingAtFirstSend(operation) { throw earlier }
            throw h.violation(
                "Expected op-1 to stay in storage after \(name) (the outcome is unknown), but it "
                    + "is not there.",
                expected: "op-1 pending", actual: "no task for op-1",
                hint: "Only an explicit success removes a task; a failed request may have been written.")
        }
        guard now.status == .pending || now.status == .inFlight else {
            throw h.violation(
                "Expected op-1 to stay pending after \(name), but it is \(now.status.rawValue).",
                expected: "status pending", actual: "status \(now.status.rawValue)",
                hint: "An unknown outcome is neither success nor a rejection: keep the task and retry.")
        }
        let changes = original.map { h.identityChanges(from: $0, to: now) } ?? []
        guard changes.isEmpty else {
            // A key stored only after the first request went out (none at submit, the request's
            // key after it) was not fixed in storage before the send: Q1's rule, broken before
            // this answer (the eighth outside round's `OperationQueue` uploader, which makes the
            // key at send time, failed Q2 and had Q3 blocked by Q2).
            if original?.key != now.key, let earlier = h.missingAtFirstSend(operation, keyMatters: true) {
                throw earlier
            }
            throw h.violation(
                "Expected only the attempt count and retry state of op-1 to change after \(name), "
                    + "but its identity changed.",
                expected: original?.description, actual: now.description,
                difference: changes.map { "~ \($0)" }.joined(separator: "\n"),
                hint: "A retry repeats the same operation: keep its operation ID, key, body and "
                    + "creation time.")
        }
        return now
    }

    /// How long the phone stays offline after Q2's dropped connection: longer than a week, the
    /// longest key retention a server commonly documents.
    static let daysOffline = 8

    /// How many more 503s op-1 meets after the listed unknown outcomes: 31 in a row in all.
    /// Far enough for a queue that does something every tenth, twentieth or thirtieth failure;
    /// short of where an uncapped backoff overflows and traps (past the 50th attempt: that is
    /// Q8's bug, which Q8 finds in its own timeline).
    static let longOutage = 24

    /// An edit submitted while an earlier update to the same entity has an unknown outcome
    /// must not change that update: the server may hold its key with its body already. Merging
    /// into updates never sent, or not merging then, both conform; what is judged is that the
    /// first update's key carries only its own body.
    private static func editAfterUnknownOutcomeStaysApart<A>(_ h: QueueHarness<A>) async throws {
        let first = h.operation(2, title: "Draft", kind: .update(entity: "t-9"))
        let later = h.operation(3, title: "Final", kind: .update(entity: "t-9"))
        try await h.submit(first)
        try h.startPass()
        let send = try await h.nextSend(of: first)
        h.answer(send, .server(.answer(status: 503)))
        try await h.settle()
        try await h.submit(later)
        try await requireSentApart(first, from: later, firstSend: send, after: "a 503", h)
    }

    /// The same when the app died while the first update's request was in flight: no answer
    /// said so, but its outcome is unknown all the same. A queue that knows a task was sent
    /// only from memory (a claim held through the backoff) forgets it with the process, and
    /// merges the edit made after the relaunch into it (the twenty-eighth outside trial's
    /// `BuggyNotesOutbox`, which every other contract passed).
    private static func editAfterCrashStaysApart<A>(_ h: QueueHarness<A>) async throws {
        let first = h.operation(4, title: "Outline", kind: .update(entity: "t-8"))
        let later = h.operation(5, title: "Published", kind: .update(entity: "t-8"))
        try await h.submit(first)
        try h.startPass()
        let send = try await h.nextSend(of: first)
        try await h.crash()
        try await h.launch()
        try await h.submit(later)
        // A task the crash or the restore lost (its key is stored nowhere) leaves nothing to
        // merge into: Q1 and Q11 judge the loss.
        let key = send.request.idempotencyKey
        let stored = try await h.tasks()
        guard stored.contains(where: { $0.key != nil && $0.key == key }) || h.persistedTask(for: first, in: stored) != nil
        else {
            h.recorder.note(
                "\(first.id) is no longer in storage after the relaunch: nothing is left to merge the edit into "
                    + "(a lost task is Q1's or Q11's to judge).")
            return
        }
        try await requireSentApart(first, from: later, firstSend: send, after: "a crash", h)
    }

    /// The same when the edit comes while the first update's request is in flight, answered
    /// with a 503 after the edit: its outcome was unknown from the moment it was sent. The
    /// thirty-eighth outside trial's outbox merged an edit into the update being sent; the edit
    /// only a 503 or a crash showed (and a success completed it unsent) passed every fixed
    /// contract, whose edits came after the answer or after a crash.
    private static func editWhileInFlightStaysApart<A>(_ h: QueueHarness<A>) async throws {
        let first = h.operation(6, title: "Sketch", kind: .update(entity: "t-7"))
        let later = h.operation(7, title: "Signed", kind: .update(entity: "t-7"))
        try await h.submit(first)
        try h.startPass()
        let send = try await h.nextSend(of: first)
        try await h.submit(later)
        h.answer(send, .server(.answer(status: 503)))
        try await h.settle()
        try await requireSentApart(first, from: later, firstSend: send, after: "a 503 to the request in flight at the edit", h)
    }

    /// Sends `first` (whose request `firstSend` met an unknown outcome) and `later`, then
    /// requires that no request under `first`'s key carried another body.
    private static func requireSentApart<A>(
        _ first: QueueOperation, from later: QueueOperation, firstSend send: ParkedSend, after outcome: String,
        _ h: QueueHarness<A>
    ) async throws {
        // Both are sent again, in whatever order the queue picks, the clock moved for a queue
        // that keeps due times (a drive that stopped once nothing unsent was stored never saw
        // the retry of an outside trial's draft queue, which carried the merged body).
        let key = send.request.idempotencyKey
        var waiting = [first, later]
        while !waiting.isEmpty {
            let next = try await h.nextSend(ofAnyOf: waiting, answeringOthers: { _ in .serve })
            h.answer(next, .serve)
            if next.request.idempotencyKey == key, next.request.body != first.body { break }
            waiting.removeAll { $0.body == next.request.body }
        }
        if let changed = h.sends.first(where: { $0.request.idempotencyKey == key && $0.request.body != first.body }) {
            throw h.violation(
                "Expected the retry of \(first.id) (its outcome unknown after \(outcome)) to carry its own "
                    + "body, but send #\(changed.number) carried \(h.operationLabel(for: changed.request.body))'s "
                    + "body under its key: the later edit was merged into it.",
                expected: "key \(h.short(key)) with \(first.bodyText) only",
                actual: "send #\(changed.number) key=\(h.short(key)) \(changed.request.bodyText)",
                hint: "Merge an edit only into an update that was never sent; once a request may have "
                    + "reached the server, its key and body are fixed: queue the edit as its own operation.")
        }
    }
}
