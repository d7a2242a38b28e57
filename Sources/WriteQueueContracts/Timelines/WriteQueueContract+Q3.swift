extension WriteQueueContract {
    /// Q3 replay after crash. Three rounds, one operation each, so a queue that sends strictly
    /// in submit order (and retries the head of its queue until it gets an answer) reaches
    /// every one:
    ///
    /// 1. The server commits op-1 then answers 503; the app crashes; the relaunched queue must
    ///    resend it with the same key and the bytes of its first request, get the original
    ///    result, and complete.
    /// 2. The same for op-2, whose connection drops after the server committed it.
    /// 3. op-3's first request is in flight when the app crashes (the server commits it, the
    ///    answer dies with the process: a task the queue had marked "sending"); the relaunched
    ///    queue must send it again, with the same key and bytes.
    ///
    /// Every body has seven fields: a queue that keeps the body as a dictionary and encodes it
    /// again for each send, without a fixed key order, sends its fields in another order after
    /// the relaunch (a dictionary's order changes from one instance to the next), which a
    /// one-field body could never show.
    static func replayAfterCrash<A>(_ h: QueueHarness<A>) async throws {
        let makeOperation: (Int) -> QueueOperation = { h.operation($0, extra: unsortedBodyFields) }
        try await h.launch()
        var firstRequests: [String: ParkedSend] = [:]
        for (number, fault, outcome) in [
            (1, ServerFault.commitThen503, "a commit followed by a 503"),
            (2, .commitThenDrop, "a commit followed by a dropped connection"),
        ] {
            let operation = makeOperation(number)
            let stored = try await h.submit(operation)
            let send = try await h.nextSend(of: operation)
            firstRequests[operation.id] = send
            try await h.noteStorageAtFirstSend(send, of: operation)
            h.answer(send, .server(fault))
            try await h.settle()
            // What the crash finds in storage is Q2's (an unknown outcome keeps the task as it
            // was); what the relaunch does with it is this rule's.
            try await h.requireKeptAfterUnknownOutcome(operation, original: stored, sentAs: send, after: outcome)
            try await h.crash()
            try await h.launch()
            try await expectReplays(of: [operation], firstRequests: firstRequests, h)
        }

        let third = makeOperation(3)
        try await h.submit(third)
        let inFlight = try await h.nextSend(of: third)
        firstRequests[third.id] = inFlight
        guard try await h.persistedTask(for: third) != nil else {
            throw h.blocked(
                by: "Q1",
                "Expected op-3 to be in durable storage while its first request is in flight, but the "
                    + "storage does not hold it.",
                expected: "a stored task for op-3", actual: "stored tasks: \(try await h.describeTasks())",
                hint: "Write the task (operation ID, body, key) to storage before its first request.")
        }
        try await h.crash(afterTheServerCommits: [inFlight])
        try await h.launch()
        try await expectReplays(of: [third], firstRequests: firstRequests, h)

        let operations = [makeOperation(1), makeOperation(2), third]
        h.recordLedger(keys: operations.map { ($0.id, firstRequests[$0.id]?.request.idempotencyKey) })
        try h.expectRecords(
            3, "after three operations replayed across crashes",
            hint: "Each operation must produce exactly one record, however often it is sent.")
    }

    /// Fields a body carries besides its title, in no sorted order: a body encoded again from a
    /// dictionary (no fixed key order) or with sorted keys shows in the bytes a resend carries,
    /// which Q3 asks to be the first attempt's. The explorer's bodies carry them too.
    static let unsortedBodyFields = [
        ("priority", "high"), ("assignee", "dana"), ("status", "open"), ("due", "2026-02-01"),
        ("category", "billing"), ("note", "call back after the tunnel"),
    ]

    /// After a relaunch: each of `operations` is resent with its first request's key and
    /// bytes, completes on the original result, and the server saw its key again.
    private static func expectReplays<A>(
        of operations: [QueueOperation], firstRequests: [String: ParkedSend], _ h: QueueHarness<A>
    ) async throws {
        var pending = operations
        while !pending.isEmpty {
            let resend = try await h.nextSend(ofAnyOf: pending) { _ in .serve }
            guard let index = pending.firstIndex(where: { $0.body == resend.request.body }),
                let original = firstRequests[pending[index].id]
            else { continue }
            let operation = pending.remove(at: index)
            if resend.request.idempotencyKey != original.request.idempotencyKey,
                let earlier = h.missingAtFirstSend(operation, keyMatters: true)
            {
                // The key was never in storage: the relaunch could not know it (Q1's rule).
                throw earlier
            }
            try h.expect(
                resend, carries: original.request.idempotencyKey, body: operation.body, of: operation,
                "the relaunched queue to resend \(operation.id) with the key of its first request",
                hint: "Keep the key in storage with the task; a new key makes a second record.")
            try h.expectSameBytes(
                resend, as: original, of: operation,
                "the relaunched queue to resend \(operation.id) with the bytes of its first request")
            h.answer(resend, .serve)
        }
        try await h.drive { _ in .serve }
        for operation in operations {
            let task = try await h.persistedTask(for: operation)
            guard h.isFinished(task) else {
                throw h.violation(
                    "Expected \(operation.id) to complete after the original result arrived, but it is "
                        + "\(task?.status.rawValue ?? "gone").",
                    expected: "completed or removed", actual: task?.description ?? "none",
                    hint: "A 200 carrying the original result is a success: complete the task.")
            }
            let key = firstRequests[operation.id]?.request.idempotencyKey
            let seen = key.map { h.ledger.attempts(forKey: $0) } ?? 0
            guard seen >= 2 else {
                throw h.violation(
                    "Expected the server to see \(operation.id)'s key again after the relaunch, but it "
                        + "saw it \(seen) time(s).",
                    expected: "at least 2 attempts with key \(key ?? "none")", actual: "\(seen)",
                    hint: "The resend after the relaunch must carry the key of the first request.")
            }
        }
    }
}
