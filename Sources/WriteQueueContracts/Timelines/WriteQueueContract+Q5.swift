extension WriteQueueContract {
    /// Q5 success-only completion. Seven operations get seven different non-success answers (no
    /// answer, a timeout, 500, 400, 404, a 307 redirect and a body conflict), in whatever order the queue sends
    /// them; none may complete. A retry of one of them met before every first answer was given
    /// is served (a queue that sends strictly in order retries its head until it succeeds), and
    /// so is every request after that: only the operations served may complete.
    ///
    /// The conflict is Q4's answer, and the dropped connection, the timeout and the 500 are
    /// Q2's (an unknown outcome keeps the task): a queue whose only fault is that one of those
    /// completes the task is blocked by that rule here, not failed, whatever order it sends in
    /// (every other operation is judged first). An outside trial's queue that deleted a task
    /// when its request threw failed Q2 and Q5 for that one bug.
    static func successOnlyCompletion<A>(_ h: QueueHarness<A>) async throws {
        try await h.launch()
        let failures: [(SendAnswer, String)] = [
            (.lost(.connectionLost), "a dropped connection"),
            (.lost(.timedOut), "a timeout"),
            (.server(.answer(status: 500)), "a 500"),
            (.server(.answer(status: 400)), "a 400"),
            (.server(.answer(status: 404)), "a 404"),
            // A redirect a client did not follow is not a success either (a queue that counts
            // every status below 400 as done drops the write: the fifteenth trial's).
            (.server(.answer(status: 307)), "a 307"),
            (.server(.conflictingRecord), "a \(h.capabilities.conflictProfile.mismatchStatus)"),
        ]
        let operations = failures.indices.map { h.operation($0 + 1) }
        for operation in operations { try await h.submit(operation) }
        var succeeded: Set<String> = []
        let names = Dictionary(uniqueKeysWithValues: zip(operations.map(\.id), failures.map(\.1)))
        let conflicted = operations[failures.count - 1].id
        let unknownOutcomes = Set(operations.prefix(3).map(\.id))
        /// How the queue finished the conflicted operation, and what storage showed then.
        var conflictFinished: (how: String, stored: String)?
        /// The first operation an unknown outcome finished, how, and what storage showed then.
        var unknownFinished: (id: String, how: String, stored: String)?
        try await h.answerFirstRequests(
            Array(zip(operations, failures.map(\.0))), notingStorage: true,
            laterAnswer: { send in
                succeeded.insert(h.operationLabel(for: send.request.body))
                return .serve
            }
        ) { operation, _ in
            let task = try await h.persistedTask(for: operation)
            guard !h.isFinished(task) else {
                // Missing while its first request was in flight, it was lost by sending (Q1).
                if task == nil, let earlier = h.missingAtFirstSend(operation) { throw earlier }
                if operation.id == conflicted {
                    conflictFinished = (task == nil ? "removed it" : "completed it", task?.description ?? "no task")
                    return
                }
                if unknownOutcomes.contains(operation.id) {
                    if unknownFinished == nil {
                        unknownFinished = (operation.id, task == nil ? "removed it" : "completed it", task?.description ?? "no task")
                    }
                    return
                }
                throw h.violation(
                    "Expected only an explicit success to complete \(operation.id), but "
                        + "\(names[operation.id] ?? "a failure") "
                        + (task == nil ? "removed it" : "completed it") + ".",
                    expected: "\(operation.id) kept (pending or needing attention)",
                    actual: task?.description ?? "no task",
                    hint: "Complete or remove a task only on a 2xx response.")
            }
        }
        try await h.drive(judgingEndlessSending: false) { send in
            succeeded.insert(h.operationLabel(for: send.request.body))
            return .serve
        }
        for operation in operations {
            let task = try await h.persistedTask(for: operation)
            if h.isFinished(task), !succeeded.contains(operation.id) {
                if task == nil, let earlier = h.missingAtFirstSend(operation) { throw earlier }
                if operation.id == conflicted {
                    if conflictFinished == nil {
                        conflictFinished = (task == nil ? "removed it" : "completed it", task?.description ?? "no task")
                    }
                    continue
                }
                if unknownOutcomes.contains(operation.id) {
                    if unknownFinished == nil {
                        unknownFinished = (operation.id, task == nil ? "removed it" : "completed it", task?.description ?? "no task")
                    }
                    continue
                }
                throw h.violation(
                    "Expected only an explicit success to complete \(operation.id), but it completed "
                        + "without one.",
                    expected: "\(operation.id) kept", actual: task?.description ?? "no task",
                    hint: "Complete or remove a task only on a 2xx response.")
            }
        }
        if let finished = unknownFinished {
            throw h.blocked(
                by: "Q2",
                "Expected \(finished.id) to stay pending after \(names[finished.id] ?? "an unknown outcome") "
                    + "(the write may have been committed), but the queue \(finished.how).",
                expected: "\(finished.id) kept, pending", actual: finished.stored,
                hint: "A dropped connection, a timeout or a 5xx leaves the outcome unknown: keep the task and retry it under the same key.")
        }
        if let finished = conflictFinished {
            throw h.blocked(
                by: "Q4",
                "Expected \(conflicted) to be kept for a person after \(names[conflicted] ?? "a conflict"), "
                    + "but the queue \(finished.how).",
                expected: "\(conflicted) kept and marked as needing attention",
                actual: finished.stored,
                hint: "A conflict is not a success: keep the task, mark it as needing attention and store why.")
        }
        h.recorder.record("storage: completed only " + succeeded.sorted().joined(separator: ", "))
    }
}
