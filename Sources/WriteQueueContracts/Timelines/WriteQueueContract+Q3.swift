extension WriteQueueContract {
    /// Q3 replay after crash. The server commits op-1 then answers 503, and commits op-2 then
    /// drops the connection; the app crashes; the relaunched queue must resend both with the
    /// same keys and bytes, get the original results, and complete.
    static func replayAfterCrash<A>(_ h: QueueHarness<A>) async throws {
        try await h.launch()
        let first = h.operation(1)
        let second = h.operation(2)
        try await h.submit(first)
        try await h.submit(second)
        var firstRequests: [String: ParkedSend] = [:]
        for (operation, fault) in [(first, ServerFault.commitThen503), (second, .commitThenDrop)] {
            let send = try await h.nextSend(of: operation)
            firstRequests[operation.id] = send
            h.answer(send, .server(fault))
        }
        try await h.crash()
        try await h.launch()
        for operation in [first, second] {
            guard let original = firstRequests[operation.id] else { continue }
            let resend = try await h.nextSend(of: operation)
            try h.expect(
                resend, carries: original.request.idempotencyKey, body: operation.body, of: operation,
                "the relaunched queue to resend \(operation.id) with the key and bytes of its first "
                    + "request",
                hint: "Keep the key and the exact body bytes in storage; a new key makes a second record.")
            h.answer(resend, .serve)
        }
        try await h.drive { _ in .serve }
        for operation in [first, second] {
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
            guard seen == 2 else {
                throw h.violation(
                    "Expected the server to see \(operation.id)'s key on both attempts, but it saw it "
                        + "\(seen) time(s).",
                    expected: "2 attempts with key \(key ?? "none")", actual: "\(seen)",
                    hint: "The resend after the relaunch must carry the key of the first request.")
            }
        }
        h.recordLedger(keys: [("op-1", firstRequests["op-1"]?.request.idempotencyKey),
                              ("op-2", firstRequests["op-2"]?.request.idempotencyKey)])
        try h.expectRecords(
            2, "after two operations replayed across a crash",
            hint: "Each operation must produce exactly one record, however often it is sent.")
    }
}
