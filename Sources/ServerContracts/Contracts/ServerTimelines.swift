/// The scripted timelines of the S contracts, one function each.
///
/// Every run uses fresh random keys (printed in the transcript) so runs against a real server
/// never collide with each other or with earlier runs. Record counts are compared only as
/// differences within one run, so a server that already holds records passes too; a server
/// that other clients write to at the same time may show foreign records in `record_count`.
enum ServerTimelines {
    static let bodyA = #"{"title":"a"}"#
    static let bodyB = #"{"title":"b"}"#

    /// S1: the same key with the same body returns the original result and creates nothing.
    static func sameKeySameBody(_ probe: ServerProbe) async throws {
        let key = probe.freshKey("a")
        let established = try await probe.establish(key: key, body: bodyA)
        let third = await probe.post(key: key, body: bodyA)
        try probe.requireReachable(third)
        guard third.isSuccess, third.recordID == established.id else {
            throw probe.violation(
                "Expected a third request with key \(key) and the same body to return the original result "
                    + "(id \(established.id)), but it got \(third.summary).",
                expected: "2xx with id \(established.id)", actual: third.summary,
                hint: "Every repeat of a committed key and body must answer with the stored record.")
        }
        guard let before = established.recordCount, let after = third.recordCount else {
            probe.recorder.note("The server reports no record_count; S1 compared record IDs only.")
            return
        }
        guard after == before else {
            throw probe.violation(
                "Expected repeating key \(key) with the same body to create no new record, but record_count "
                    + "went from \(before) to \(after).",
                expected: "record_count \(before)", actual: "record_count \(after)",
                hint: "Look the key up before writing; a repeat must not insert again.")
        }
    }

    /// S2: the same key with another body is rejected and the stored record is not overwritten.
    static func sameKeyDifferentBody(_ probe: ServerProbe) async throws {
        let key = probe.freshKey("a")
        let established = try await probe.establish(key: key, body: bodyA)
        let conflict = await probe.post(key: key, body: bodyB)
        try probe.requireReachable(conflict)
        let wanted = probe.mismatchStatus
        if conflict.status != wanted {
            let hint: String
            switch conflict.status {
            case 422 where !probe.followsIETFDraft:
                hint = "The server answers 422, as the IETF idempotency-key draft does. If that is its "
                    + "declared profile, check it with profile: .ietfDraft (conformance check-server --profile ietf-draft)."
            case 409 where probe.followsIETFDraft:
                hint = "In the IETF draft 409 means \"still being processed\"; a finished key reused with a "
                    + "different body is 422. If the server follows the seed's contract, drop the IETF declaration."
            case let status? where (200..<300).contains(status):
                hint = "The server accepted a different body under a used key: compare the stored body with "
                    + "the new one before answering, and never overwrite the record."
            default:
                hint = "Reject a reused key with a different body with \(wanted) and keep the stored record."
            }
            throw probe.violation(
                "Expected key \(key), reused with a different body, to be rejected with \(wanted), but it got "
                    + "\(conflict.summary).",
                expected: "status \(wanted)", actual: conflict.summary, hint: hint)
        }
        let original = await probe.post(key: key, body: bodyA)
        try probe.requireReachable(original)
        guard original.isSuccess, original.recordID == established.id else {
            throw probe.violation(
                "Expected the stored record for key \(key) (id \(established.id), body \(bodyA)) to be unchanged "
                    + "after the rejected request, but the original body now gets \(original.summary).",
                expected: "2xx with id \(established.id)", actual: original.summary,
                hint: "The rejected request must not overwrite or remove the stored record.")
        }
        let observed = await probe.get("/records/\(key)")
        guard observed.isSuccess, let stored = observed.storedBody else {
            probe.recorder.note(
                "GET /records/<key> is not available; S2 checked the stored record through repeats only.")
            return
        }
        let expected = ServerReply.canonical(text: bodyA)
        guard stored == expected else {
            throw probe.violation(
                "Expected the stored body of key \(key) to stay \(bodyA), but the server now holds \(stored).",
                expected: "body \(bodyA)", actual: "body \(stored)",
                hint: "A rejected request must leave the stored body as it was.")
        }
    }

    /// S3: a missing key, an empty body and a body that is not JSON get 400 and record nothing.
    static func missingKeyOrBadBody(_ probe: ServerProbe) async throws {
        let baseline = try await probe.establish(key: probe.freshKey("baseline"), body: bodyA)
        let key = probe.freshKey("bad")
        let cases: [(what: String, key: String?, body: String)] = [
            ("a request without an Idempotency-Key header", nil, bodyA),
            ("a request with key \(key) and an empty body", key, ""),
            ("a request with key \(key) and a body that is not JSON", key, #"{"title": "#),
        ]
        for bad in cases {
            let reply = await probe.post(key: bad.key, body: bad.body)
            try probe.requireReachable(reply)
            guard reply.status == 400 else {
                throw probe.violation(
                    "Expected 400 for \(bad.what), but it got \(reply.summary).",
                    expected: "status 400", actual: reply.summary,
                    hint: reply.isSuccess || reply.isUnknownOutcome
                        ? "Validate the key and the body before processing anything; a request the server "
                            + "cannot identify or parse must be refused, not committed."
                        : "Refuse a missing key or a bad body with 400 (the same bytes never become valid).")
            }
        }
        let first = await probe.post(key: key, body: bodyB)
        try probe.requireReachable(first)
        if let status = first.status, status == 409 || status == 422 {
            throw probe.violation(
                "Expected key \(key) to be unused after its bad requests were refused, but a valid request "
                    + "with it got \(first.summary): a refused request left a record behind.",
                expected: "a first receipt (2xx, 5xx or a dropped connection)", actual: first.summary,
                hint: "Record nothing for a request that is answered 400.")
        }
        try probe.requireFirstReceipt(first, key: key)
        let second = await probe.post(key: key, body: bodyB)
        try probe.requireReachable(second)
        guard second.isSuccess, second.recordID != nil else {
            throw probe.violation(
                "Expected a repeat of key \(key) with the same body to return the stored result, but it got "
                    + "\(second.summary).",
                expected: "2xx with an id", actual: second.summary)
        }
        guard let before = baseline.recordCount, let after = second.recordCount else {
            probe.recorder.note("The server reports no record_count; S3 checked status codes and key reuse only.")
            return
        }
        guard after == before + 1 else {
            throw probe.violation(
                "Expected the refused requests to record nothing (record_count \(before) before them, "
                    + "\(before + 1) after one valid new key), but record_count is \(after).",
                expected: "record_count \(before + 1)", actual: "record_count \(after)",
                hint: "Validate before writing; a request answered 400 must leave no record.")
        }
    }

    /// How many requests S4 sends at once.
    static let concurrentRequests = 50

    /// S4: many concurrent requests with one key and one body create exactly one record.
    static func concurrentDuplicates(_ probe: ServerProbe) async throws {
        let baseline = try await probe.establish(key: probe.freshKey("baseline"), body: bodyA)
        let key = probe.freshKey("a")
        let count = concurrentRequests
        probe.recorder.setWaiting(for: "\(count) concurrent requests with key \(key)")
        let replies = await withTaskGroup(of: ServerReply.self, returning: [ServerReply].self) { group in
            for index in 1...count {
                group.addTask { await probe.post(key: key, body: bodyA, tag: "#\(index) ") }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        var tally: [String: Int] = [:]
        for reply in replies {
            tally[reply.tallyLabel, default: 0] += 1
        }
        probe.recorder.record(
            "\(count) concurrent requests answered: "
                + tally.sorted { $0.key < $1.key }.map { "\($0.key)×\($0.value)" }.joined(separator: ", "))
        for reply in replies { try probe.requireReachable(reply) }
        if let refused = replies.first(where: { reply in
            guard let status = reply.status, (400..<500).contains(status) else { return false }
            return !(probe.followsIETFDraft && status == 409)
        }) {
            throw probe.violation(
                "Expected every concurrent request with key \(key) and the same body to get the stored result "
                    + "or an unknown outcome, but one got \(refused.summary).",
                expected: probe.followsIETFDraft ? "2xx, 409 (in progress), 5xx or a dropped connection" : "2xx, 5xx or a dropped connection",
                actual: refused.summary,
                hint: refused.status == 409
                    ? "In the seed's contract 409 means a different body; a concurrent duplicate should wait for "
                        + "the first request and return its result. If the server follows the IETF draft "
                        + "(409 = still being processed), declare it."
                    : "A duplicate of an in-flight request is not a client error.")
        }
        let ids = Set(replies.compactMap { $0.isSuccess ? $0.recordID : nil })
        guard ids.count <= 1 else {
            throw probe.violation(
                "Expected \(count) concurrent requests with key \(key) to share one record, but the answers "
                    + "carry record IDs \(ids.sorted().joined(separator: ", ")).",
                expected: "one record id", actual: "ids \(ids.sorted().joined(separator: ", "))",
                hint: "Make the key unique where records are written (a unique constraint or a per-key lock), "
                    + "not only in a check before writing.")
        }
        let final = await probe.post(key: key, body: bodyA)
        try probe.requireReachable(final)
        guard final.isSuccess, let id = final.recordID, ids.isEmpty || ids.contains(id) else {
            throw probe.violation(
                "Expected a request with key \(key) after the concurrent ones to return their one record"
                    + (ids.first.map { " (id \($0))" } ?? "") + ", but it got \(final.summary).",
                expected: "2xx" + (ids.first.map { " with id \($0)" } ?? ""), actual: final.summary)
        }
        guard let before = baseline.recordCount, let after = final.recordCount else {
            probe.recorder.note("The server reports no record_count; S4 compared record IDs only.")
            return
        }
        guard after == before + 1 else {
            throw probe.violation(
                "Expected \(count) concurrent requests with one key to create exactly one record "
                    + "(record_count \(before) → \(before + 1)), but record_count is \(after).",
                expected: "record_count \(before + 1)", actual: "record_count \(after)",
                hint: "Concurrent first requests for one key race between the lookup and the insert; "
                    + "make the insert itself refuse a second record for the key.")
        }
    }

    /// S5: a record survives a restart of the server.
    static func durableRecords(_ probe: ServerProbe, restart: @Sendable () async throws -> Void) async throws {
        let key = probe.freshKey("a")
        let established = try await probe.establish(key: key, body: bodyA)
        probe.recorder.record("restart the server")
        probe.recorder.setWaiting(for: "the server to restart")
        try await restart()
        let after = await probe.post(key: key, body: bodyA)
        try probe.requireReachable(after)
        guard after.isSuccess, after.recordID == established.id else {
            throw probe.violation(
                "Expected the record for key \(key) (id \(established.id)) to survive the restart, but a repeat "
                    + "after it got \(after.summary)"
                    + (after.isUnknownOutcome ? ": the server treated it as a first receipt." : "."),
                expected: "2xx with id \(established.id)", actual: after.summary,
                hint: "Write the record to durable storage (and flush it) before answering, and load it at start.")
        }
        if let before = established.recordCount, let count = after.recordCount, count < before {
            throw probe.violation(
                "Expected record_count to stay at least \(before) across the restart, but it is \(count).",
                expected: "record_count ≥ \(before)", actual: "record_count \(count)",
                hint: "Count the records loaded from storage, not only those written since start.")
        }
        let conflict = await probe.post(key: key, body: bodyB)
        try probe.requireReachable(conflict)
        guard conflict.status == probe.mismatchStatus else {
            throw probe.violation(
                "Expected the stored body of key \(key) to survive the restart (another body still rejected "
                    + "with \(probe.mismatchStatus)), but it got \(conflict.summary).",
                expected: "status \(probe.mismatchStatus)", actual: conflict.summary,
                hint: "Persist the body (or its fingerprint) with the record, not only the key.")
        }
    }
}
