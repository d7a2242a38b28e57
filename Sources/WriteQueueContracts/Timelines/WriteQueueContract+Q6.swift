extension WriteQueueContract {
    /// Q6 new action, new key. Two submits with identical bodies are two operations: two
    /// tasks, two keys, two records.
    static func newActionNewKey<A>(_ h: QueueHarness<A>) async throws {
        try await h.launch()
        let first = h.operation(1, title: "Ticket")
        let second = h.operation(2, title: "Ticket")
        try await h.submit(first)
        try await h.submit(second)
        // One task for both: the second submit was dropped or merged into the first (a
        // double-tap guard that compares bodies), whatever key the survivor carries.
        let twins = try await h.tasks().filter { $0.body == first.body }
        if twins.count == 1 {
            throw h.violation(
                "Expected two submits with identical bodies to be two stored tasks, but storage holds one: "
                    + "the second submit was dropped or merged into the first.",
                expected: "2 tasks with body \(first.bodyText)", actual: try await h.describeTasks(),
                hint: droppedCreateHint)
        }
        try h.startPass()
        try await h.drive { _ in .serve }
        let keys = Set(h.sends.filter { $0.request.body == first.body }.compactMap(\.request.idempotencyKey))
        guard keys.count == 2 else {
            throw h.violation(
                "Expected two submits with identical bodies to be sent under two different keys, but "
                    + "the server saw \(keys.count) key(s).",
                expected: "2 keys", actual: keys.sorted().joined(separator: ", "),
                hint: freshKeyHint)
        }
        h.recordLedger(keys: keys.sorted().map { ("Ticket", $0) })
        try h.expectRecords(
            2, "after the user created two tickets",
            hint: "Idempotency must not swallow a genuine new action.")
    }

    /// Q6's hint, also given where Q6 blocks another contract (Q12's identical creates) and by
    /// the explorer's Q6 rule.
    static let freshKeyHint = "Choose a fresh key per submit; never derive it from the body."

    /// Q6's hint where the second of two identical submits left no task of its own.
    static let droppedCreateHint =
        "Two separate submits are two operations, even with identical bodies: never drop or merge a create."
}
