extension WriteQueueContract {
    /// Q2 unknown outcome keeps the task: a dropped connection, a timeout, a 503 and a 500 in a
    /// row each leave the task pending with the same identity.
    static func unknownOutcomeKeepsTask<A>(_ h: QueueHarness<A>) async throws {
        try await h.launch()
        let operation = h.operation(1)
        var original = try await h.submit(operation)
        let unknowns: [(SendAnswer, String)] = [
            (.lost(.connectionLost), "a dropped connection"),
            (.lost(.timedOut), "a timeout"),
            (.server(.answer(status: 503)), "a 503"),
            (.server(.answer(status: 500)), "a 500"),
        ]
        var firstKey: String? = nil
        for (index, (answer, name)) in unknowns.enumerated() {
            let send = try await h.nextSend(of: operation)
            if index == 0 {
                try await h.noteStorageAtFirstSend(send, of: operation)
                firstKey = send.request.idempotencyKey
            } else if send.request.idempotencyKey != firstKey {
                throw h.anotherKeyOnRetry(
                    of: operation.id, storedKey: h.storageAtFirstSend[operation.id]?.stored?.key,
                    firstKey: firstKey, retry: send, after: unknowns[index - 1].1, judgedHere: true)
            }
            h.answer(send, answer)
            try await h.settle()
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
                throw h.violation(
                    "Expected only the attempt count and retry state of op-1 to change after \(name), "
                        + "but its identity changed.",
                    expected: original?.description, actual: now.description,
                    difference: changes.map { "~ \($0)" }.joined(separator: "\n"),
                    hint: "A retry repeats the same operation: keep its operation ID, key, body and "
                        + "creation time.")
            }
            original = original ?? now
            h.recorder.record("storage: op-1 still pending, key \(h.short(now.key)), attempts \(now.attempts)")
        }
        try await h.drive { _ in .serve }
    }
}
