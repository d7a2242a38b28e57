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
