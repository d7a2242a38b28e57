import ConformanceKit
import Foundation

/// The checks several timelines share, each phrased as "Expected …, but …".
extension QueueHarness {
    /// The stored task of `operation`, which must hold a key.
    func requireStoredWithKey(
        _ operation: QueueOperation, _ task: PersistedTask?, when moment: String
    ) async throws -> PersistedTask {
        guard let task else {
            throw violation(
                "Expected \(operation.id) to be in durable storage \(moment), but the storage does "
                    + "not hold it.",
                expected: "a task with body \(operation.bodyText)",
                actual: "stored tasks: \(try await describeTasks())",
                hint: "Write the task (operation ID, body, key) to storage before submit returns "
                    + "and before its first request.")
        }
        guard task.key != nil else {
            throw violation(
                "Expected \(operation.id) to be stored with its idempotency key \(moment), but it "
                    + "has no key in storage.",
                expected: "a key chosen at submit and stored with the task",
                actual: task.description,
                hint: "Choose the key at submit and persist it; a key kept only in memory changes "
                    + "after a relaunch.")
        }
        return task
    }

    /// Reads what storage holds for `operation` while its first request (`send`) is in
    /// flight, for ``missingAtFirstSend(_:keyMatters:)``: no verdict is taken here, since a
    /// queue may persist the task only once the answer came (Q1's own finding, which other
    /// contracts need not share).
    func noteStorageAtFirstSend(_ send: ParkedSend, of operation: QueueOperation) async throws {
        guard storageAtFirstSend[operation.id] == nil else { return }
        let all = try await tasks()
        storageAtFirstSend[operation.id] = StorageAtFirstSend(
            send: send.number, key: send.request.idempotencyKey, stored: persistedTask(for: operation, in: all),
            tasks: describe(all))
    }

    /// When a contract's own check is about to fail on a task that is gone, stopped or resent
    /// under another key: the stop that blames Q1 instead, if the cause came first, when the
    /// task was missing from storage while its first request was in flight (or, when
    /// `keyMatters`, stored without that request's key). A crash or an answer then only shows
    /// what sending already lost; the cell is blocked by Q1.
    func missingAtFirstSend(_ operation: QueueOperation, keyMatters: Bool = false) -> TimelineStop? {
        guard let seen = storageAtFirstSend[operation.id] else { return nil }
        let problem: String
        if let task = seen.stored {
            guard keyMatters, task.key != seen.key else { return nil }
            problem = "the stored task has key \(task.key ?? "none")"
        } else {
            problem = "the storage did not hold it"
        }
        return blocked(
            by: "Q1",
            "Expected \(operation.id) to be in storage with the key of its first request while that "
                + "request (send #\(seen.send)) was in flight, but \(problem).",
            expected: "a stored task with key \(seen.key ?? "none")",
            actual: "stored tasks then: \(seen.tasks)",
            hint: "Write the task (with its key) to storage first, then send, and keep it until a "
                + "success; a crash while the request is in flight must lose nothing.")
    }

    /// When a contract's own check is about to fail on a stored key other than the one sent
    /// (`read`, what storage showed for `operation`): the stop that blames Q1 instead when
    /// storage holds no fixed key at all, so that a second read shows yet another one. A key
    /// left out of the stored record and made anew at each read (the thirty-sixth trial's
    /// outbox, `CodingKeys` without it) breaks Q1's rule, not the running contract's.
    func keyNotFixedInStorage(_ operation: QueueOperation, read: PersistedTask) async throws -> TimelineStop? {
        guard let again = try await persistedTask(for: operation), again.key != read.key else { return nil }
        return blocked(
            by: "Q1",
            "Expected \(operation.id) to be stored with its key fixed, but two reads of storage in a row show "
                + "key \(read.key ?? "none") and then key \(again.key ?? "none").",
            expected: "one stored key for \(operation.id)", actual: "\(read.description); then \(again.description)",
            hint: "Store the key chosen at submit with the task and read it back as stored; a key missing from "
                + "the stored record and made again at each read is a new key for every resend.")
    }

    /// A setup step of a contract other than Q2: after `outcome` (an unknown outcome: a 5xx, a
    /// timeout, a dropped connection) the task of `operation` is still stored, pending, with
    /// the operation ID, key and body it had at submit (`original`, or the key of `send` when
    /// the adapter reported no task then). A queue that removes, stops or rewrites it breaks
    /// Q2's rule, and the running contract's own check (a replay, a backoff) needs it: the cell
    /// is blocked by Q2.
    func requireKeptAfterUnknownOutcome(
        _ operation: QueueOperation, original: PersistedTask?, sentAs send: ParkedSend, after outcome: String
    ) async throws {
        let now = try await persistedTask(for: operation)
        var problem: String?
        if let now {
            let changes = original.map { identityChanges(from: $0, to: now, includingCreationTime: false) } ?? []
            if now.status != .pending && now.status != .inFlight {
                problem = "it is \(now.status.rawValue)"
            } else if !changes.isEmpty {
                problem = "its " + changes.joined(separator: ", ")
            } else if original == nil, now.key != send.request.idempotencyKey {
                problem = "its key is now \(now.key ?? "none")"
            }
        } else {
            problem = "it is gone from storage"
        }
        guard let problem else { return }
        // A key that changed since submit may never have been stored before the first request
        // (made at send time): Q1's rule (see `missingAtFirstSend`).
        if let earlier = missingAtFirstSend(operation, keyMatters: original.map { $0.key != now?.key } ?? false) {
            throw earlier
        }
        throw blocked(
            by: "Q2",
            "Expected \(operation.id) to stay pending with its key and body after \(outcome) (the outcome "
                + "is unknown), but \(problem).",
            expected: original.map { "\($0.operationID) key=\($0.key ?? "none") pending (or in flight)" }
                ?? "\(operation.id) pending",
            actual: now?.description ?? "no task for \(operation.id)",
            hint: "An unknown outcome is neither success nor a rejection: keep the task, its key and "
                + "its body, and retry.")
    }

    /// The stop for a retry of `label` (send `retry`, after `outcome`) that carried another key
    /// than the operation's first request (`firstKey`).
    ///
    /// A retry keeps the operation's identity: Q2's rule. Q2 itself reports it
    /// (`judgedHere`); any other contract is blocked by Q2. Unless the key was never stored with
    /// the task (`storedKey`, read while the first request was in flight, or right after
    /// submit): a queue that makes a key per request breaks Q1's rule (the key is fixed in
    /// storage before the first request) before any retry, and the cell is blocked by Q1. (The
    /// seventh trial's `FileFifoOutbox` passed Q2, failed Q8 and was "blocked by Q2" in Q9.)
    func anotherKeyOnRetry(
        of label: String, storedKey: String?, firstKey: String?, retry: ParkedSend, after outcome: String,
        judgedHere: Bool = false, hint retryHint: String? = nil
    ) -> TimelineStop {
        let summary =
            "Expected the retry of \(label) after \(outcome) to carry the key of its first request, but "
            + "send #\(retry.number) carried another."
        let expected = "key \(firstKey ?? "none")"
        let actual = "key \(retry.request.idempotencyKey ?? "none")"
        if storedKey == nil || storedKey != firstKey {
            return blocked(
                by: "Q1",
                summary + " The key was never stored with the task: storage held "
                    + (storedKey.map { "key \($0)" } ?? "no key") + " when its first request carried "
                    + (firstKey ?? "none") + ".",
                expected: expected, actual: actual,
                hint: "Choose the key once, at submit, store it with the task, and send that stored key "
                    + "on every request; a key made while building each request changes on every retry.")
        }
        let hint = retryHint ?? "A retry repeats the same operation with the key stored at submit."
        return judgedHere
            ? violation(summary, expected: expected, actual: actual, hint: hint)
            : blocked(by: "Q2", summary, expected: expected, actual: actual, hint: hint)
    }

    /// The identity fields that differ between two versions of one task: operation ID, key and
    /// body, and the creation time unless `includingCreationTime` is `false` (Q2 names it; Q8's
    /// rule names only the other three, so a creation time reset on retry is Q2's finding alone).
    func identityChanges(
        from original: PersistedTask, to now: PersistedTask, includingCreationTime: Bool = true
    ) -> [String] {
        var changes: [String] = []
        if original.operationID != now.operationID {
            changes.append("operation ID \(original.operationID) → \(now.operationID)")
        }
        if original.key != now.key { changes.append("key \(original.key ?? "none") → \(now.key ?? "none")") }
        if original.body != now.body { changes.append("body \(original.bodyText) → \(now.bodyText)") }
        if includingCreationTime, original.createdAt != now.createdAt {
            changes.append("creation time \(original.createdAt ?? "none") → \(now.createdAt ?? "none")")
        }
        return changes
    }

    /// Checks that `send` carries `key` and the byte-identical `body`.
    func expect(
        _ send: ParkedSend, carries key: String?, body: Data, of operation: QueueOperation,
        _ reason: String, hint: String
    ) throws {
        if send.request.idempotencyKey != key {
            throw violation(
                "Expected \(reason), but send #\(send.number) of \(operation.id) carried key "
                    + "\(send.request.idempotencyKey ?? "none").",
                expected: "key \(key ?? "none")",
                actual: "key \(send.request.idempotencyKey ?? "none")",
                hint: hint)
        }
        if send.request.body != body {
            throw violation(
                "Expected \(reason), but send #\(send.number) of \(operation.id) carried a "
                    + "different body.",
                expected: "body \(String(decoding: body, as: UTF8.self))",
                actual: "body \(send.request.bodyText)",
                hint: "Send the bytes stored at submit; never re-encode the body on a retry.")
        }
    }

    /// `true` when the task completed or left storage.
    func isFinished(_ task: PersistedTask?) -> Bool {
        task == nil || task?.status == .completed
    }

    /// Records what the ledger holds, for the transcript.
    func recordLedger(keys: [(String, String?)]) {
        let perKey = keys.map { label, key in
            "\(label) key \(short(key)) seen \(key.map { ledger.attempts(forKey: $0) } ?? 0)×"
        }
        recorder.record("ledger: \(ledger.recordCount) record(s); " + perKey.joined(separator: ", "))
    }

    /// Checks the server holds `expected` records.
    func expectRecords(_ expected: Int, _ reason: String, hint: String) throws {
        let actual = ledger.recordCount
        guard actual == expected else {
            throw violation(
                "Expected the server to hold \(expected) record(s) \(reason), but it holds \(actual).",
                expected: "\(expected) record(s)",
                actual: ledger.allRecords.map {
                    "record \($0.id) key \($0.key) body \(String(decoding: $0.body, as: UTF8.self))"
                }.joined(separator: "; "),
                hint: hint)
        }
    }
}

extension QueueHarness {
    /// Records a violation of the running contract and lets the timeline go on, for a contract
    /// that reports every finding of its rule rather than the first.
    func record(
        _ summary: String, expected: String? = nil, actual: String? = nil, hint: String
    ) {
        recorder.add(
            Violation(
                kind: .contract, tier: recorder.tier, summary: summary, expected: expected,
                actual: actual, hint: hint))
    }
}
