import ConformanceKit
import Foundation

extension QueueScheduleExecution {
    /// A hash of everything the future of the run depends on: the stored tasks, the open
    /// requests, the server's records, the clock and its waits, the running triggers, and the
    /// kit's own record of keys, successes, unknown outcomes and terminal answers. Two prefixes
    /// with the same fingerprint are explored once by the bounded exhaustive search.
    ///
    /// Keys are random per run, so each appears as its order of first appearance.
    func fingerprint(tasks: [PersistedTask]) -> Int {
        let h = harness
        var ordinals: [String: Int] = [:]
        func ordinal(_ key: String?) -> Int {
            guard let key else { return -1 }
            if let known = ordinals[key] { return known }
            ordinals[key] = ordinals.count
            return ordinals.count - 1
        }
        var hasher = Hasher()
        hasher.combine(operations)
        for task in tasks {
            hasher.combine(task.operationID)
            hasher.combine(task.status)
            hasher.combine(task.attempts)
            hasher.combine(task.body)
            hasher.combine(ordinal(task.key))
            hasher.combine(task.diagnostic != nil)
        }
        for send in h.openSends {
            hasher.combine(send.request.body)
            hasher.combine(ordinal(send.request.idempotencyKey))
            hasher.combine(send.trigger)
        }
        for record in h.ledger.allRecords {
            hasher.combine(record.body)
            hasher.combine(ordinal(record.key))
        }
        hasher.combine(h.clock.now)
        hasher.combine(h.clock.liveDeadlines)
        hasher.combine(h.running)
        hasher.combine(h.currentInstance)
        for body in keysByBody.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            hasher.combine(body)
            hasher.combine(keysByBody[body, default: []].map(ordinal).sorted())
        }
        hasher.combine(successKeys.map(ordinal).sorted())
        for body in lastAnsweredBody.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            hasher.combine(body)
            hasher.combine(lastAnsweredBody[body])
        }
        for id in storedIdentity.keys.sorted() {
            hasher.combine(id)
            hasher.combine(ordinal(storedIdentity[id]?.key))
            hasher.combine(storedIdentity[id]?.createdAt)
        }
        // Which bodies each key carried (I7 judges it), not how often.
        var carried: Set<[Int]> = []
        for send in h.sends {
            let body = operations.firstIndex { $0.body == send.request.body } ?? -1
            carried.insert([ordinal(send.request.idempotencyKey), body])
        }
        hasher.combine(carried.sorted { $0.lexicographicallyPrecedes($1) })
        for (identity, stop) in terminalAnswer.sorted(by: { ordinal($0.key.key) < ordinal($1.key.key) }) {
            hasher.combine(ordinal(identity.key))
            hasher.combine(identity.body)
            hasher.combine(stop.status)
        }
        for (identity, unknown) in unknownOutcome.sorted(by: { ordinal($0.key.key) < ordinal($1.key.key) }) {
            hasher.combine(ordinal(identity.key))
            hasher.combine(identity.body)
            hasher.combine(unknown.at)
            hasher.combine(unknown.trigger)
        }
        let unknownEarlier = unknownBeforeCrash.map { identity in
            [ordinal(identity.key), operations.firstIndex { $0.body == identity.body } ?? -1]
        }
        hasher.combine(unknownEarlier.sorted { $0.lexicographicallyPrecedes($1) })
        return hasher.finalize()
    }

    /// Every step of the bounded exhaustive alphabet that can apply now: up to three
    /// operations (a submit, a copy of `op-1`, an update), a sending pass while fewer than two
    /// run, for each open request a success, a commit-then-503, a dropped connection, a
    /// conflict and a 400, a clock advance (to a pass's wake-up, or a later sync's tick), and
    /// one crash.
    func alphabet(crashes: Int) -> [QueueSchedule.Step] {
        var steps: [QueueSchedule.Step] = []
        if submittedCount < 3 {
            steps.append(.submit)
            if submittedCount > 0 { steps.append(.submitCopy(of: 1)) }
            if updateCount < 2 { steps.append(.update) }
        }
        if harness.running.count < 2 { steps.append(.sendingPass) }
        let replies: [QueueSchedule.Reply] = [.success, .commitThen503, .connectionLost, .conflict, .status(400)]
        for send in openSends {
            steps += replies.map { .answer(send: send, $0) }
        }
        if someoneWaitsOnTheClock || submittedCount > 0 { steps.append(.advanceClock) }
        if crashes < 1 { steps.append(.crash) }
        return steps
    }
}
