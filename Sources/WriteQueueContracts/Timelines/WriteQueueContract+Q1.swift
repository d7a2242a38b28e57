extension WriteQueueContract {
    /// Q1 persist before send. Two crash points: right after submit (no request yet), and while
    /// the first request is parked at the transport. Both relaunches must send with the key
    /// chosen at submit.
    static func persistBeforeSend<A>(_ h: QueueHarness<A>) async throws {
        try await h.launch()
        let first = h.operation(1)
        let stored = try await h.requireStoredWithKey(first, try await h.submit(first), when: "right after submit")
        try await h.crash()
        try await h.launch()
        let resend = try await h.nextSend(of: first)
        try h.expect(
            resend, carries: stored.key, body: first.body, of: first,
            "the relaunched queue to send op-1 with the key chosen at submit",
            hint: "Persist the key with the task at submit and read it back after a relaunch.")
        h.answer(resend, .serve)
        try await h.drive { _ in .serve }

        let second = h.operation(2)
        try await h.submit(second)
        let firstSend = try await h.nextSend(of: second)
        let atSend = try await h.persistedTask(for: second)
        guard let atSend, atSend.key == firstSend.request.idempotencyKey, atSend.body == second.body else {
            throw h.violation(
                "Expected op-2 to be in storage with the key of its first request while that request "
                    + "is in flight (a crash now must lose nothing), but "
                    + (atSend == nil ? "the storage does not hold it" : "the stored task differs") + ".",
                expected: "a stored task with key \(firstSend.request.idempotencyKey ?? "none") and body \(second.bodyText)",
                actual: atSend.map { "\($0.description) body \($0.bodyText)" } ?? "no task",
                hint: "Write the task to storage first, then send, and keep it until a success; a crash "
                    + "while the request is in flight must lose nothing.")
        }
        try await h.crash()
        try await h.launch()
        guard let replay = try await h.sendIfAny(of: second) else {
            // A relaunch that never resends a task whose request was in flight breaks Q3's rule
            // (replay after crash); Q1 cannot check the replayed key without it.
            throw h.blocked(
                by: "Q3",
                "Expected the relaunched queue to send op-2 again, whose first request was in flight "
                    + "at the crash, but no pass sent it.",
                expected: "a resend of op-2 with key \(firstSend.request.idempotencyKey ?? "none")",
                actual: "stored tasks: \(try await h.describeTasks())",
                hint: "A task left \"sending\" (or leased) by a crashed launch must be picked again "
                    + "after the relaunch.")
        }
        try h.expect(
            replay, carries: firstSend.request.idempotencyKey, body: second.body, of: second,
            "the relaunched queue to resend op-2 with the key of its first request",
            hint: "Persist the key with the task at submit; never choose a key at send time.")
        h.answer(replay, .serve)
        try await h.drive { _ in .serve }
        h.recordLedger(keys: [("op-1", stored.key), ("op-2", atSend.key)])
        try h.expectRecords(
            2, "after two operations, each sent until it succeeded",
            hint: "A resend under a new key creates a second record.")

        // A submit while a pass's request is in flight, then that request succeeds: the task
        // must outlive the pass. A pass that saves back the whole outbox it read when it began
        // (a key-value store, a plist) drops it with no crash and no answer to it: an outside
        // trial's `UserDefaults`-style outbox passed every contract with that bug.
        let third = h.operation(3)
        let fourth = h.operation(4)
        try await h.submit(third)
        try h.startPass()
        let thirdSend = try await h.nextSend(of: third)
        try await h.submit(fourth)
        h.answer(thirdSend, .serve)
        try await h.settle()
        guard try await h.persistedTask(for: fourth) != nil || h.sends.contains(where: { $0.request.body == fourth.body })
        else {
            throw h.violation(
                "Expected op-4, submitted while send #\(thirdSend.number) (op-3) was in flight, to stay in "
                    + "storage once that request succeeded, but it is gone and was never sent.",
                expected: "a stored task for op-4", actual: "stored tasks: \(try await h.describeTasks())",
                hint: "Keep every task stored from submit until its own success: write storage as a change "
                    + "to what it holds now (read, modify, write under one lock), never as a copy read before "
                    + "a submit.")
        }
        try await h.drive { _ in .serve }
        try h.expectRecords(
            4, "after two more operations, the second submitted while the first was in flight",
            hint: "Every submit is its own operation, sent until it succeeds.")
    }
}
