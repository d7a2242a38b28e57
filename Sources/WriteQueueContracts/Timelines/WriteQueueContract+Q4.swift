import ConformanceKit

extension WriteQueueContract {
    /// Q4 409 stops. The server already holds a different body under op-1's key; op-2 flows,
    /// and a new task still flows once 61 tasks are stopped.
    /// In the source document's profile the 409 stops op-1; in the IETF profile a 409 first
    /// says "still in flight" (retry with the same key) and the 422 then stops it.
    static func conflictStops<A>(_ h: QueueHarness<A>) async throws {
        let profile = h.capabilities.conflictProfile
        try await h.launch()
        let conflicted = h.operation(1)
        let other = h.operation(2)
        try await h.submit(conflicted)
        try await h.submit(other)
        if profile == .ietfDraft {
            let busy = try await h.nextSend(of: conflicted, answeringOthers: .serve)
            h.answer(busy, .server(.stillInFlight))
            try await h.settle()
            let task = try await h.persistedTask(for: conflicted)
            guard let task, task.status == .pending || task.status == .inFlight else {
                throw h.violation(
                    "Expected op-1 to stay pending after 409 \"still being processed\" (IETF profile), "
                        + "but it is \(task?.status.rawValue ?? "gone").",
                    expected: "op-1 pending", actual: task?.description ?? "no task",
                    hint: "In the IETF profile 409 means the first request is still running: retry "
                        + "later with the same key.")
            }
            let retry = try await h.nextSend(of: conflicted, answeringOthers: .serve)
            try h.expect(
                retry, carries: busy.request.idempotencyKey, body: conflicted.body, of: conflicted,
                "the retry after a 409 \"still being processed\" to carry the same key",
                hint: "Retry with the stored key; a new key would create a second record.")
            h.answer(retry, .server(.conflictingRecord))
        } else {
            try h.startPass()
        }
        let mismatch = profile.mismatchStatus
        var stoppedBy: Int? = profile == .ietfDraft ? h.sends(of: conflicted).last?.number : nil
        try await h.drive { send in
            guard send.request.body == conflicted.body else { return .serve }
            if let stoppedBy {
                throw h.violation(
                    "Expected \(mismatch) to stop automatic resending of op-1, but send #\(send.number) "
                        + "resent it (after send #\(stoppedBy)).",
                    expected: "no request for op-1 after the \(mismatch)",
                    actual: "send #\(send.number) key=\(send.request.idempotencyKey ?? "none")",
                    hint: "A \(mismatch) means the key holds a different body: mark the task as "
                        + "needing attention and never resend it automatically.")
            }
            stoppedBy = send.number
            return .server(.conflictingRecord)
        }
        try h.startPass()
        try await h.drive { send in
            guard send.request.body == conflicted.body else { return .serve }
            throw h.violation(
                "Expected a later sending pass not to send op-1 after its \(mismatch), but send "
                    + "#\(send.number) did.",
                expected: "no request for op-1", actual: "send #\(send.number)",
                hint: "Store the stopped state with the task so later passes (and relaunches) skip it.")
        }
        let task = try await h.persistedTask(for: conflicted)
        guard let task, task.status == .needsAttention, let diagnostic = task.diagnostic, !diagnostic.isEmpty else {
            throw h.violation(
                "Expected op-1 to be kept and marked as needing attention with a diagnostic after "
                    + "its \(mismatch), but it is "
                    + (task.map { "\($0.status.rawValue)" + ($0.diagnostic == nil ? " without a diagnostic" : "") } ?? "gone")
                    + ".",
                expected: "op-1 needsAttention with a diagnostic", actual: task?.description ?? "no task",
                hint: "Keep the task (a person must resolve the conflict) and store why it stopped.")
        }
        let sentKey = h.sends(of: conflicted).last?.request.idempotencyKey
        guard task.key == nil || task.key == sentKey else {
            if let stop = try await h.keyNotFixedInStorage(conflicted, read: task) { throw stop }
            throw h.violation(
                "Expected op-1 to keep its key after the \(mismatch), but it changed.",
                expected: "key \(sentKey ?? "none")", actual: "key \(task.key ?? "none")",
                hint: "A stopped task keeps its identity.")
        }
        let flowing = try await h.persistedTask(for: other)
        guard h.isFinished(flowing) else {
            throw h.violation(
                "Expected op-2 to keep flowing while op-1 is stopped, but it is "
                    + "\(flowing?.status.rawValue ?? "gone").",
                expected: "op-2 completed", actual: flowing?.description ?? "none",
                hint: "One stopped task must not block the others.")
        }
        h.recorder.record("storage: op-1 needs attention (\(diagnostic)); op-2 completed")
        try await flowsPastManyStopped(h)
    }

    /// How many more tasks ``flowsPastManyStopped(_:)`` stops: with op-1, more than a page of
    /// 20, 25 or 50 rows. (A page of 100 would need 100 more requests in every run of Q4, for
    /// every queue: the matrix took four times as long.)
    static let manyStopped = 60

    /// Stopped tasks stay until a person resolves them, and they pile up (a server-side
    /// validation change, a week of conflicts): with 61 of them stopped, a new task must still
    /// flow. A queue that reads one page of unfinished tasks and then filters for the sendable
    /// ones finds only stopped tasks on that page, and never sends again (the sixteenth trial's
    /// `ScanUploadQueue`, a page of 50).
    private static func flowsPastManyStopped<A>(_ h: QueueHarness<A>) async throws {
        let first = 3
        let stopping = (first..<(first + manyStopped)).map { h.operation($0) }
        for operation in stopping { try await h.submit(operation) }
        let bodies = Set(stopping.map(\.body))
        try h.startPass()
        try await h.drive(maxSends: manyStopped * 4, judgingEndlessSending: false) { send in
            bodies.contains(send.request.body) ? .server(.conflictingRecord) : .serve
        }
        let last = h.operation(first + manyStopped)
        try await h.submit(last)
        h.recorder.record("\(manyStopped + 1) tasks are stopped; \(last.id) is new")
        try h.startPass()
        try await h.drive { _ in .serve }
        let task = try await h.persistedTask(for: last)
        guard h.isFinished(task) else {
            throw h.violation(
                "Expected \(last.id) to flow while \(manyStopped + 1) tasks are stopped, but it is "
                    + "\(task?.status.rawValue ?? "gone").",
                expected: "\(last.id) completed", actual: task?.description ?? "none",
                hint: "Stopped tasks must not crowd out the others: pick the tasks to send among the "
                    + "sendable ones (a query limited to pending, due tasks), not from a page of every "
                    + "unfinished task.")
        }
    }
}
