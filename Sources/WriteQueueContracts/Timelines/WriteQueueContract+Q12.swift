import Foundation

extension WriteQueueContract {
    /// Q12 coalescing keeps the latest body (recommended). Two updates to entity t-7 ("Draft"
    /// then "Final") and two identical creates. A queue that merges sends "Final" last; one that
    /// does not merge sends both, in any order (the catalogue's variations: order is judged only
    /// where a rule asks for it, and Q12 asks it of merging queues). Either way no key carries
    /// two different bodies, and the two creates become two records.
    static func coalescingKeepsLatestBody<A>(_ h: QueueHarness<A>) async throws {
        try await h.launch()
        let draft = h.operation(1, title: "Draft", kind: .update(entity: "t-7"))
        let final = h.operation(2, title: "Final", kind: .update(entity: "t-7"))
        let createA = h.operation(3, title: "New ticket")
        let createB = h.operation(4, title: "New ticket")
        for operation in [draft, final, createA, createB] { try await h.submit(operation) }
        try h.startPass()
        try await h.drive { _ in .serve }
        let updates = h.sends.filter { $0.request.body == draft.body || $0.request.body == final.body }
        let merges = h.capabilities.coalescesUpdates
        if !merges {
            h.recorder.note(
                "The queue does not merge updates (QueueCapabilities.coalescesUpdates): the order of "
                    + "its two updates was not judged (both are sent, in any order), only that the latest one was sent.")
        }
        let latestSent = merges ? updates.last?.request.body == final.body : updates.contains { $0.request.body == final.body }
        guard latestSent else {
            throw h.violation(
                "Expected the last body sent for entity t-7 to be the latest update, but it was "
                    + (updates.last.map { $0.request.bodyText } ?? "never sent") + ".",
                expected: "last body \(final.bodyText)",
                actual: updates.map { "send #\($0.number) \($0.request.bodyText)" }.joined(separator: ", "),
                hint: "When merging pending updates, keep the newest body (and send it).")
        }
        var bodiesByKey: [String: Set<Data>] = [:]
        for send in updates { bodiesByKey[send.request.idempotencyKey ?? "none", default: []].insert(send.request.body) }
        if let (key, bodies) = bodiesByKey.first(where: { $0.value.count > 1 }) {
            throw h.violation(
                "Expected each key to carry one body, but key \(key) carried \(bodies.count).",
                expected: "one body per key",
                actual: bodies.map { String(decoding: $0, as: UTF8.self) }.sorted().joined(separator: ", "),
                hint: "A merged operation keeps one key and one body; a changed body under a sent "
                    + "key meets a 409.")
        }
        let createSends = h.sends.filter { $0.request.body == createA.body }
        let createKeys = Set(createSends.compactMap(\.request.idempotencyKey))
        // Sent as two requests under one key, the creates were not merged: the second action
        // got the first one's key, Q6's rule (the twenty-third trial's `MealLogSyncQueue`, whose
        // key is a hash of the body, failed Q6 and this rule for one bug).
        if createKeys.count == 1, createSends.count >= 2, let key = createKeys.first {
            throw h.blocked(
                by: "Q6",
                "Expected two identical creates to carry two keys, but both were sent, as \(createSends.count) "
                    + "requests, under key \(key).",
                expected: "2 keys for 2 creates",
                actual: createSends.map { "send #\($0.number) key=\($0.request.idempotencyKey ?? "none")" }
                    .joined(separator: ", "),
                hint: freshKeyHint)
        }
        // One request for both: the second identical create was dropped or merged into the
        // first (a double-tap guard that compares bodies): Q6's rule, which covers identical
        // submits; an outside trial's `R2FormSubmissionQueue` failed Q6 and this rule for it.
        if createKeys.count == 1, createSends.count == 1, let key = createKeys.first {
            throw h.blocked(
                by: "Q6",
                "Expected two identical creates to be sent as two operations, but one request was sent, "
                    + "under key \(key).",
                expected: "2 keys for 2 creates", actual: "send #\(createSends[0].number) key=\(key)",
                hint: droppedCreateHint)
        }
        guard createKeys.count == 2 else {
            throw h.violation(
                "Expected two creates never to be merged, but they were sent under "
                    + "\(createKeys.count) key(s).",
                expected: "2 keys for 2 creates", actual: createKeys.sorted().joined(separator: ", "),
                hint: "Only updates to one entity may merge; every create is its own operation.")
        }
    }
}
