import ConformanceKit
import Foundation

/// The rules the queue explorer checks after every step: the invariants I7–I9, and the Q rules
/// that one state of the run can break, each judged only where no correct queue could differ.
///
/// - Q10: no diagnostic or log line holds the sensitive `card` value.
/// - Q1: once `submit` returns, the operation is in storage with its key (Q12 names a merged
///   update whose body was dropped).
/// - Q6: two stored tasks never share a key.
/// - Q2: a stored task's key and creation time never change (nor its body, unless the queue
///   declares that it merges updates); a task whose last request met an unknown outcome stays
///   pending.
/// - I7: the requests for one operation carry one key; a key never carries two bodies.
/// - Q7: two requests with one key and body are never in flight from the same instant of the
///   kit's clock. (A lease that expires while a request is parked is the queue's timeout
///   policy; the kit does not judge it.)
/// - Q4, Q9: a request that met a terminal answer is never sent again; a task whose request
///   met a status declared retryable stays pending.
/// - Q8: a pass that met an unknown outcome and then waited on the clock resends within the
///   declared cap.
/// - I8: the server holds at most one record per operation.
/// - I9: an operation stays in storage until a request with its key met a success.
extension QueueScheduleExecution {
    func checkRules() async throws {
        let h = harness
        let tasks = try await h.tasks()
        let newSends = h.sends.filter { seenAt[$0.number] == nil }
        for send in newSends {
            seenAt[send.number] = h.clock.now
            if let key = send.request.idempotencyKey { keysByBody[send.request.body, default: []].insert(key) }
        }
        learnKeys(from: tasks)
        try await checkDiagnostics()
        try checkSubmitted(tasks)
        try checkDistinctKeys(tasks)
        try checkNoEditUnderASentKey(tasks)
        try checkIdentity(tasks)
        try checkKeys()
        try checkSingleSender()
        try checkResends(newSends)
        try checkReplayBytes(newSends)
        try checkRelaunchKeys(newSends)
        try checkRecords()
        try checkCustody(tasks)
        try checkStoppedAfterUnknownOutcome(tasks)
        try checkStoppedAfterRetryableStatus(tasks)
    }

    /// Q9: a task whose last request met a client error the adapter declares retryable (a 408
    /// or 429), and was not sent again since, stays pending for its retry after the backoff:
    /// it is never stopped as if the status were final. (The ninth trial's completion-handler
    /// queue treated every 4xx but 409 as final; the fixed Q9 caught it, the explorer, which
    /// judged only resends after a final answer, did not.)
    private func checkStoppedAfterRetryableStatus(_ tasks: [PersistedTask]) throws {
        guard let (task, identity, answer) = stoppedTask(in: tasks, after: retryableAnswer) else { return }
        throw fail(
            "Q9", "Expected \(task.operationID) to stay pending after a \(answer.status) to send #\(answer.send) (the adapter declares it retryable), but it is \(task.status.rawValue).",
            expected: "\(task.operationID) pending, key \(harness.short(identity.key))", actual: task.description,
            hint: "A status the server's API calls retryable (408, 429, …) is retried with the same key after the backoff; only a final 4xx such as 400 or 422 stops the task.")
    }

    /// The first stored task stopped for a person (`needsAttention`) although the last request
    /// with its key met an answer `answers` holds, and none with its key met a final one.
    private func stoppedTask<Answer>(in tasks: [PersistedTask], after answers: [Identity: Answer])
        -> (task: PersistedTask, identity: Identity, answer: Answer)?
    {
        for task in tasks where task.status == .needsAttention {
            guard let key = task.key, let (identity, answer) = answers.first(where: { $0.key.key == key }),
                !terminalAnswer.keys.contains(where: { $0.key == key })
            else { continue }
            return (task, identity, answer)
        }
        return nil
    }

    /// Q2: a task whose last request met an unknown outcome (a 5xx, a timeout, a dropped
    /// connection), and was not sent again since, stays pending: it is never stopped as if the
    /// answer had been a rejection. (The eighth trial's queue marked a timed-out upload failed
    /// for good; the fixed Q2 caught it, the explorer, judging only removed or completed tasks,
    /// did not.)
    private func checkStoppedAfterUnknownOutcome(_ tasks: [PersistedTask]) throws {
        guard let (task, identity, unknown) = stoppedTask(in: tasks, after: unknownOutcome) else { return }
        let answer = harness.answered.first { $0.send.number == unknown.send }
        let outcome = answer.map { $0.status.map { "a \($0)" } ?? "no answer (the request was lost)" } ?? "an unknown outcome"
        throw fail(
            "Q2", "Expected \(task.operationID) to stay pending after \(outcome) to send #\(unknown.send) (the outcome is unknown), but it is \(task.status.rawValue).",
            expected: "\(task.operationID) pending, key \(harness.short(identity.key))", actual: task.description,
            hint: "A timeout, a dropped connection or a 5xx is neither success nor a rejection: keep the task pending and retry it.")
    }

    /// Keys the storage shows for each operation's body (by operation ID or by body).
    private func learnKeys(from tasks: [PersistedTask]) {
        for task in tasks {
            guard let key = task.key else { continue }
            for operation in operations where operation.id == task.operationID || operation.body == task.body {
                keysByBody[operation.body, default: []].insert(key)
                storedKeysByBody[operation.body, default: []].insert(key)
            }
        }
    }

    private func checkDiagnostics() async throws {
        // Like the fixed Q10: judged only where the adapter declares its diagnostics.
        guard capabilities.exposesDiagnostics else { return }
        let canary = WriteQueueContract.sensitiveCanary
        // A byte search: `String.contains` with Foundation imported bridges every line to
        // `NSString` (4% of an in-memory queue's exploration, run after every step), and the
        // standard library's generic `contains(_:)` was slower still; the canary is ASCII, so
        // its bytes occur exactly where it does.
        let bytes = Array(canary.utf8)
        let leaking = try await harness.diagnostics().filter { Self.line($0, containsBytes: bytes) }
        guard !leaking.isEmpty else { return }
        throw fail(
            "Q10", "Expected no diagnostic or log line to contain a sensitive value ("
                + capabilities.sensitiveFields.sorted().joined(separator: ", ") + "), but \(leaking.count) did.",
            expected: "no line containing \(canary)", actual: leaking.prefix(3).joined(separator: "\n"),
            hint: "Log the operation ID, key, status and byte count, never the body; redact the fields "
                + "QueueOperation.sensitiveFields names.")
    }

    /// Whether the UTF-8 bytes of `line` contain `needle` (not empty).
    private static func line(_ line: String, containsBytes needle: [UInt8]) -> Bool {
        var line = line
        return line.withUTF8 { haystack in
            guard haystack.count >= needle.count else { return false }
            let first = needle[0]
            for start in 0...(haystack.count - needle.count)
            where haystack[start] == first && haystack[start..<start + needle.count].elementsEqual(needle) {
                return true
            }
            return false
        }
    }

    private func checkSubmitted(_ tasks: [PersistedTask]) throws {
        guard let operation = justSubmitted else { return }
        let live = tasks.filter { $0.status != .completed }
        let holding = live.filter { covers($0, operation) }
        let twins = operations(withBody: operation.body)
        let owed = twins.count - succeeded(body: operation.body)
        if holding.count < owed {
            // The submit after a relaunch is stored but an earlier twin restored from storage is
            // gone: the submit displaced it, Q11's finding (recommended), not a swallowed action.
            let lost = twins.filter { twin in twin != operation && !holding.contains { $0.operationID == twin.id } }
            if holding.contains(where: { $0.operationID == operation.id }), submitAfterRelaunchDisplaced(lost) {
                throw fail(
                    "Q11", "Expected \(lost.map(\.id).joined(separator: ", ")), stored before the crash, to stay in storage once \(operation.id) was submitted after the relaunch, but it is gone.",
                    expected: "\(owed) tasks", actual: "stored: \(describe(live))",
                    hint: "Restore the stored tasks before accepting a submit, or merge the restored list with what was submitted meanwhile; never save an older list over the store.",
                    invariant: "I9")
            }
            if twins.count > 1, !holding.isEmpty {
                throw fail(
                    "Q6", "Expected \(twins.count) submits with identical bodies (\(twins.map(\.id).joined(separator: ", "))) to be \(owed) waiting tasks, but storage holds \(holding.count).",
                    expected: "\(owed) tasks", actual: describe(live),
                    hint: "Two separate submits are two operations, even with identical bodies: never drop or merge a create.")
            }
            if let entity = operation.entity,
                let merged = live.first(where: { Self.entity(of: $0.body) == entity && $0.operationID != operation.id })
            {
                throw fail(
                    "Q12", "Expected \(operation.id), an update of \(entity), to be stored, or merged into the waiting task for \(entity) with its body, but that task (\(merged.operationID)) still holds the older body.",
                    expected: "a stored body \(operation.bodyText)", actual: "\(merged.operationID): \(merged.bodyText)",
                    hint: "When merging pending updates, keep the newest body.")
            }
            throw fail(
                "Q1", "Expected \(operation.id) to be in durable storage once submit returned, but storage does not hold it.",
                expected: "a task for \(operation.id)", actual: describe(live),
                hint: "Write the task (operation ID, body and key) to storage before submit returns and before "
                    + "its first request: a crash now would lose the user's action.")
        }
        if let keyless = holding.first(where: { $0.key == nil && $0.status != .needsAttention }) {
            throw fail(
                "Q1", "Expected \(operation.id) to be stored with its idempotency key, but the stored task has none.",
                expected: "a key in storage", actual: keyless.description,
                hint: "Choose the key at submit and persist it with the task, so a relaunch resends with it.")
        }
    }

    private func checkDistinctKeys(_ tasks: [PersistedTask]) throws {
        var owner: [String: PersistedTask] = [:]
        for task in tasks where task.status != .completed {
            guard let key = task.key else { continue }
            if let first = owner[key], first.operationID != task.operationID {
                throw fail(
                    "Q6", "Expected every stored task to have a key of its own, but \(first.operationID) and \(task.operationID) share key \(harness.short(key)).",
                    expected: "two keys", actual: "\(first.description)\n\(task.description)",
                    hint: WriteQueueContract.freshKeyHint + " The server would swallow the second action.")
            }
            owner[key] = owner[key] ?? task
        }
    }

    /// A merging queue may give a waiting update a later edit's body only while no request has
    /// carried its key: once one did, the outcome is unknown (the server may hold the first body
    /// under that key), so the edit needs a task and key of its own. Judged from storage at the
    /// edit itself: the thirty-eighth trial's outbox merged an edit into the update whose request
    /// was in flight, and only a 503 or a crash after it showed the key carrying two bodies; with
    /// a success the edit was silently lost, and the explorer, which counted the key's success
    /// for both, said nothing.
    private func checkNoEditUnderASentKey(_ tasks: [PersistedTask]) throws {
        guard !harness.sends.isEmpty else { return }
        for task in tasks where task.status != .completed {
            guard let key = task.key,
                let sent = harness.sends.first(where: { send in
                    send.request.idempotencyKey == key && send.request.body != task.body
                        && isLaterUpdate(task.body, than: send.request.body)
                })
            else { continue }
            let h = harness
            throw fail(
                "Q2", "Expected key \(h.short(key)), which send #\(sent.number) carried with the body of \(h.operationLabel(for: sent.request.body)), to keep that body until the server answers it, but storage now holds the body of \(h.operationLabel(for: task.body)) under it: an edit merged into an update whose request was sent, so whose outcome is unknown.",
                expected: "key \(h.short(key)) with \(sent.request.bodyText)", actual: task.description,
                hint: "Merge an edit only into an update no request has carried; once one has (in flight, after a 503, "
                    + "after a crash), store the edit as a task of its own with a new key: the server may already hold "
                    + "the first body under that key, and a success for it would complete the edit unsent.")
        }
    }

    private func checkIdentity(_ tasks: [PersistedTask]) throws {
        let waiting = tasks.filter { $0.status != .completed }
        // An ID that left storage may come back for a new task (a reused row ID): forget it.
        let present = Set(waiting.map(\.operationID))
        storedIdentity = storedIdentity.filter { present.contains($0.key) }
        for task in waiting {
            let baseline = StoredIdentity(key: task.key, createdAt: task.createdAt, body: task.body, step: harness.recorder.lastStep)
            guard let first = storedIdentity[task.operationID] else {
                storedIdentity[task.operationID] = baseline
                continue
            }
            // A merge may give the merged task a later update's body, key and time, as long as
            // the old key was never sent.
            if capabilities.coalescesUpdates, task.body != first.body, isLaterUpdate(task.body, than: first.body),
                !harness.sends.contains(where: { $0.request.idempotencyKey == first.key })
            {
                storedIdentity[task.operationID] = baseline
                continue
            }
            var changes: [String] = []
            // A stopped task may drop its key (it is never sent again).
            let keyDropped = task.key == nil && task.status == .needsAttention
            if let key = first.key, task.key != key, !keyDropped {
                changes.append("key \(harness.short(key)) → \(harness.short(task.key))")
            }
            if let created = first.createdAt, let now = task.createdAt, created != now {
                changes.append("creation time \(created) → \(now)")
            }
            if !capabilities.coalescesUpdates, task.body != first.body {
                changes.append("body \(String(decoding: first.body, as: UTF8.self)) → \(task.bodyText)")
            }
            guard changes.isEmpty else {
                // Before any answer to the task nothing has happened that Q2 is about: the
                // identity was not fixed in storage at submit, Q1's rule (the thirty-sixth
                // trial's outbox left the key out of its stored record, so every read made a new
                // one: the fixed suite named it Q1, the explorer Q2).
                guard lastAnsweredBody[first.body] != nil else {
                    throw fail(
                        "Q1", "Expected \(task.operationID) to be stored with its identity fixed from its submit, but before any answer to it its \(changes.joined(separator: ", ")).",
                        expected: "the identity stored at step \(first.step)", actual: task.description,
                        difference: changes.map { "~ \($0)" }.joined(separator: "\n"),
                        hint: "Store the key (and body) chosen at submit with the task and read it back as stored: a key "
                            + "missing from the stored record and made again at each read is a new key for every resend.")
                }
                throw fail(
                    "Q2", "Expected \(task.operationID) to keep its identity while it waits, but its \(changes.joined(separator: ", ")).",
                    expected: "the identity stored at step \(first.step)", actual: task.description,
                    difference: changes.map { "~ \($0)" }.joined(separator: "\n"),
                    hint: "Only the attempt count and the retry state may change; a new key makes a resend a new write.")
            }
        }
    }

    /// Whether `body` is the body of an update submitted after the one whose body is `earlier`,
    /// to the same entity.
    private func isLaterUpdate(_ body: Data, than earlier: Data) -> Bool {
        guard let first = operations.firstIndex(where: { $0.body == earlier }), let entity = operations[first].entity
        else { return false }
        return operations[(first + 1)...].contains { $0.entity == entity && $0.body == body }
    }

    private func checkKeys() throws {
        let h = harness
        if let stray = h.sends.first(where: { operations(withBody: $0.request.body).isEmpty }) {
            throw fail(
                strayBodyRule, "Expected every request to carry the body of the operation it sends, but send #\(stray.number) carries \(stray.request.bodyText), the body of no submitted operation.",
                actual: "body: \(stray.request.bodyText)",
                hint: "Send the body persisted at submit, byte for byte; never rebuild or merge it.", invariant: "I7")
        }
        var bodiesByKey: [String: [Data]] = [:]
        for send in h.sends {
            let key = send.request.idempotencyKey ?? "none"
            if !(bodiesByKey[key]?.contains(send.request.body) ?? false) { bodiesByKey[key, default: []].append(send.request.body) }
            if let bodies = bodiesByKey[key], bodies.count > 1 {
                throw fail(
                    identityRule(across: h.sends.filter { ($0.request.idempotencyKey ?? "none") == key }),
                    "Expected one key to carry one operation, but key \(h.short(key)) carried the bodies of \(bodies.map { h.operationLabel(for: $0) }.joined(separator: " and ")).",
                    expected: "one body per key", actual: bodies.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "\n"),
                    hint: "A key names one operation; the server answers a second body under it with a conflict.", invariant: "I7")
            }
        }
        for body in Set(operations.map(\.body)) {
            let twins = operations(withBody: body)
            let keys = h.sends.filter { $0.request.body == body }.map { $0.request.idempotencyKey ?? "none" }
            var distinct: [String] = []
            for key in keys where !distinct.contains(key) { distinct.append(key) }
            guard distinct.count > twins.count else { continue }
            let label = twins.map(\.id).joined(separator: "/")
            throw fail(
                identityRule(across: h.sends.filter { $0.request.body == body }),
                "Expected every request for \(label) to carry one key, but it was sent with keys \(distinct.map { h.short($0) }.joined(separator: ", ")).",
                expected: "\(twins.count) key(s) for \(label)", actual: "keys: \(distinct.map { h.short($0) }.joined(separator: ", "))",
                hint: "Choose the key at submit, persist it with the task, and reuse it on every retry and after every relaunch.", invariant: "I7")
        }
    }

    private func checkSingleSender() throws {
        let open = harness.openSends
        for (index, send) in open.enumerated() {
            // A queue may give up on a request after its declared timeout and send again; two
            // requests started closer together than that are two senders.
            let timeout = capabilities.requestTimeout
            guard
                let twin = open[(index + 1)...].first(where: { other in
                    guard Identity(other.request) == Identity(send.request),
                        let first = seenAt[send.number], let second = seenAt[other.number]
                    else { return false }
                    return first.duration(to: second) < timeout
                })
            else { continue }
            let h = harness
            let apart = seenAt[send.number].flatMap { first in seenAt[twin.number].map { first.duration(to: $0) } } ?? .zero
            throw fail(
                "Q7", "Expected at most one request for \(h.operationLabel(for: send.request.body)) in flight, but sends #\(send.number) and #\(twin.number) are, started "
                    + (apart == .zero ? "at the same instant" : "\(ManualClock.format(apart)) apart, within the declared request timeout of \(ManualClock.format(timeout))") + ".",
                expected: "1 request in flight",
                actual: [send, twin].map { "send #\($0.number) (\(h.origin(of: $0)))" }.joined(separator: ", "),
                hint: "Take a send lease for the task before sending, and skip leased tasks.")
        }
    }

    /// Q3 (invariant I7): a request a relaunched queue sends with a key and body a crashed
    /// launch already sent carries the bytes of that first request. Bodies are otherwise
    /// compared as JSON values; this is the one place bytes count, as in the fixed Q3 (a queue
    /// that keeps a body as a dictionary and encodes it again for each send, with no fixed key
    /// order, sends its fields in another order after the relaunch).
    private func checkReplayBytes(_ newSends: [ParkedSend]) throws {
        let h = harness
        for send in newSends {
            let identity = Identity(send.request)
            guard identity.key != nil else { continue }
            guard let first = firstRequest[identity] else {
                firstRequest[identity] = send
                continue
            }
            guard send.instance > first.instance, send.rawBody != first.rawBody else { continue }
            let label = h.operationLabel(for: send.request.body)
            throw fail(
                "Q3", "Expected the relaunched queue to resend \(label) with the bytes of its first request (send #\(first.number)), but send #\(send.number) carried other bytes.",
                expected: String(decoding: first.rawBody, as: UTF8.self),
                actual: String(decoding: send.rawBody, as: UTF8.self),
                hint: "Store the exact bytes of the first request with the task and send those; encoding a dictionary again may order its fields differently.",
                invariant: "I7")
        }
    }

    /// Q3 (invariant I7): a relaunched queue sends a task the crashed launch stored under the
    /// key storage holds for it, not a key storage never held. (The thirty-second trial's
    /// outbox gave every restored entry a fresh key while its journal kept the old one; the
    /// explorer saw it only when the crashed launch had sent the entry first, so whether the
    /// entry's first request left before the crash decided between Q3 and a pass, and a
    /// second record it made was named Q2.)
    private func checkRelaunchKeys(_ newSends: [ParkedSend]) throws {
        guard crashes > 0 else { return }
        let h = harness
        for send in newSends {
            let body = send.request.body
            guard let key = send.request.idempotencyKey, let stored = storedKeysByBodyAtCrash[body], !stored.isEmpty,
                !storedKeysByBody[body, default: []].contains(key)
            else { continue }
            let label = h.operationLabel(for: body)
            throw fail(
                "Q3", "Expected the relaunched queue to send \(label) with the key storage holds for it (\(stored.sorted().map { h.short($0) }.joined(separator: ", "))), but send #\(send.number) carried key \(h.short(key)), which storage never held.",
                expected: "key: \(stored.sorted().map { h.short($0) }.joined(separator: " or "))", actual: "key: \(h.short(key))",
                hint: "Read the key back from storage when you restore a task after a relaunch; never give a restored task a fresh one.",
                invariant: "I7")
        }
    }

    private func checkResends(_ newSends: [ParkedSend]) throws {
        let h = harness
        for send in newSends {
            let identity = Identity(send.request)
            let label = h.operationLabel(for: send.request.body)
            if let stop = terminalAnswer[identity] {
                let conflict = capabilities.isConflict(stop.status)
                throw fail(
                    conflict ? "Q4" : "Q9",
                    "Expected the \(stop.status) answered to send #\(stop.send) to stop \(label), but send #\(send.number) resent it.",
                    expected: "no request for \(label) after the \(stop.status)",
                    actual: "send #\(send.number) key=\(h.short(send.request.idempotencyKey))",
                    hint: conflict
                        ? "A \(stop.status) means the key holds a different body: mark the task as needing attention and never resend it automatically."
                        : "The same bytes cannot become valid by being sent again: stop the task (only statuses declared retryable are retried).")
            }
            defer { unknownOutcome[identity] = nil }
            // A pass that waited for a lease another request of the same task holds waited for
            // that request, not for a backoff: only a wait with no twin in flight is judged.
            let twinInFlight = h.openSends.contains { Identity($0.request) == identity && $0.number != send.number }
            guard movedClock, let cap = capabilities.backoffCap, let unknown = unknownOutcome[identity],
                unknown.trigger == send.trigger, !twinInFlight
            else { continue }
            // The wait that just ended began at the pass's last answer, no earlier.
            let began = max(unknown.at, lastAnswerAt[send.trigger] ?? unknown.at)
            let waited = began.duration(to: h.clock.now)
            // One millisecond over is the clock's resolution, as the fixed Q8 allows its step: a
            // due date computed from a read made after the answer (which the kit's `Date` view
            // moves a microsecond forward, as a real clock would) and slept to the millisecond
            // rounded up lands there (the twelfth trial's 5 s retry woke at 5.001 s).
            if waited > cap + .milliseconds(1) {
                throw fail(
                    "Q8", "Expected the retry of \(label) to come within the declared cap of \(ManualClock.format(cap)) after the unknown outcome of send #\(unknown.send), but the pass waited \(ManualClock.format(waited)) on the clock.",
                    expected: "a retry within \(ManualClock.format(cap))", actual: "send #\(send.number) after \(ManualClock.format(waited))",
                    hint: "Clamp the backoff: min(cap, base × 2^attempt).")
            }
        }
    }

    private func checkRecords() throws {
        let records = harness.ledger.allRecords
        for body in Set(operations.map(\.body)) {
            let twins = operations(withBody: body)
            let held = records.filter { $0.body == body }
            guard held.count > twins.count else { continue }
            let label = twins.map(\.id).joined(separator: "/")
            throw fail(
                identityRule(across: harness.sends.filter { $0.request.body == body }),
                "Expected the server to hold at most \(twins.count) record(s) for \(label), but it holds \(held.count) (ids \(held.map { String($0.id) }.joined(separator: ", "))).",
                expected: "records for \(label): at most \(twins.count)", actual: "records: \(held.count)",
                hint: "A resend after an unknown outcome must carry the original key, so the server can recognise it.", invariant: "I8")
        }
    }

    private func checkCustody(_ tasks: [PersistedTask]) throws {
        let live = tasks.filter { $0.status != .completed }
        for operation in operations {
            let twins = operations(withBody: operation.body)
            guard operation == twins.first else { continue }
            let covering = live.filter { task in twins.contains { covers(task, $0) } }
            let owed = twins.count - succeeded(body: operation.body)
            guard covering.count < owed else { continue }
            let label = twins.map(\.id).joined(separator: "/")
            // Identical submits stored or sent under fewer keys than there are submits: the
            // later one went out under a key the server already holds a record for, and its
            // "original result" completed it. One bug, Q6's (a key derived from the body), which
            // the explorer also reported as Q5 (`MealLogSyncQueue`, `QueueThatDerivesKeyFromBody`).
            let keys = keysByBody[operation.body, default: []]
            if twins.count > 1, keys.count < twins.count {
                throw fail(
                    "Q6", "Expected \(twins.count) submits with identical bodies (\(twins.map(\.id).joined(separator: ", "))) to be \(twins.count) operations, each under a key of its own, but they were stored or sent under \(keys.count == 1 ? "one key" : "\(keys.count) keys") (\(keys.sorted().map { harness.short($0) }.joined(separator: ", "))): the server took the later one for a repeat, and storage no longer holds it.",
                    expected: "\(twins.count) keys", actual: "stored: \(describe(live))",
                    hint: WriteQueueContract.freshKeyHint + " The server would swallow the second action.")
            }
            let rule = custodyRule(for: twins, live: live)
            let unanswered = rule == "Q1" && wereNeverAnswered(lostKeys(of: twins, live: live))
            throw fail(
                rule, "Expected \(label) to stay in storage until an explicit success, but \(twins.count > 1 ? "fewer tasks remain than operations wait" : "it is gone (or marked completed)") and no request for it was answered with success"
                    + (unanswered ? " (none of its own requests was answered at all)." : "."),
                expected: "\(label) in storage", actual: "stored: \(describe(live))",
                hint: unanswered
                    ? "Keep every task stored from submit until its own success: write storage as a change to what it holds now (read, modify, write under one lock), never as a copy read before a submit."
                    : "Remove or complete a task only on a success response; a 5xx, a timeout or a dropped connection leaves the outcome unknown.",
                invariant: "I9")
        }
    }

    /// The contract a request with a body of no submitted operation breaks, where the operation
    /// it was meant to send is unknown (so ``identityRule(across:)`` cannot tell whether a
    /// relaunch changed it): Q3 (replay after crash, same key and bytes) once the app has
    /// crashed, Q2 (an unknown outcome keeps the key and body) before.
    private var strayBodyRule: ContractID { crashes > 0 ? "Q3" : "Q2" }

    /// The contract an identity finding about `sends` breaks: Q3 when a relaunch sent a body the
    /// crashed launch had stored or sent under another key (the replay changed its identity),
    /// Q2 otherwise: the identity changed while one launch ran, or for an operation submitted
    /// after the relaunch. A crash elsewhere in the schedule changes nothing: the explorer
    /// reported one merged-update bug (an edit merged into an update whose outcome was unknown)
    /// as Q2 and again as Q3, with a crash before the first submit, between the merge and the
    /// resend, or before the merge.
    private func identityRule(across sends: [ParkedSend]) -> ContractID {
        guard let first = sends.map(\.instance).min() else { return "Q2" }
        let replayChanged = sends.contains { send in
            guard send.instance > first, let key = send.request.idempotencyKey,
                let known = keysByBodyAtCrash[send.request.body]
            else { return false }
            return !known.contains(key)
        }
        return replayChanged ? "Q3" : "Q2"
    }

    /// The contract a lost task (I9) breaks: Q11 when a submit after a relaunch displaced it
    /// (recommended, as in the catalogue); Q1 when it left storage while its first request was
    /// in flight, before any answer; then by the last answer to a key no stored task holds any
    /// more: Q4 for a conflict, Q2 for an unknown outcome, Q5 for any other answer that is not a
    /// success (a 429 that completed it); Q12 when it is an update whose entity
    /// still has a task, holding an older body (a merged update reverted, recommended); Q4 or Q2
    /// by the answers to its body under any key; Q5 (only a success completes or removes a
    /// task) otherwise.
    ///
    /// The lost key's own answer comes first: a queue that deletes a task on a 503 lost the
    /// second of two identical submits after the first met a 409, and an edit of an entity whose
    /// earlier edit was still stored, and the explorer named those Q4 and Q12, with the hint of
    /// the 5xx rule (`QueueThatDeletesTaskOn503`: Q2, and Q5, Q4, Q12; now Q2 and Q5, its ledger).
    private func custodyRule(for twins: [QueueOperation], live: [PersistedTask]) -> ContractID {
        if submitAfterRelaunchDisplaced(twins) { return "Q11" }
        // Gone while a request for it is in flight and before any of its requests was answered:
        // sending lost it (the task must stay stored while its request flies), as the fixed
        // contracts say, not an answer.
        let twinBodies = Set(twins.map(\.body))
        if harness.openSends.contains(where: { twinBodies.contains($0.request.body) }),
            !harness.answered.contains(where: { twinBodies.contains($0.send.request.body) })
        {
            return "Q1"
        }
        let lostKeys = lostKeys(of: twins, live: live)
        // By key alone: a merging queue sends a merged update's key with the latest body.
        let lost: (Identity) -> Bool = { $0.key.map(lostKeys.contains) == true }
        if terminalAnswer.contains(where: { lost($0.key) && capabilities.isConflict($0.value.status) })
            || retryableAnswer.contains(where: { lost($0.key) && capabilities.isConflict($0.value.status) })
        {
            return "Q4"
        }
        if unknownOutcome.keys.contains(where: lost) || unknownBeforeCrash.contains(where: lost) { return "Q2" }
        if terminalAnswer.keys.contains(where: lost) || retryableAnswer.keys.contains(where: lost) { return "Q5" }
        let entities = Set(twins.compactMap(\.entity))
        if capabilities.coalescesUpdates, !entities.isEmpty,
            live.contains(where: { task in Self.entity(of: task.body).map(entities.contains) == true })
        {
            return "Q12"
        }
        // Gone, and no request under a key of its own was ever answered: no answer lost it,
        // another operation's least of all (an outside trial's outbox, whose pass wrote back the
        // copy of storage it read before a submit, was named Q5, Q2, Q1 and Q4 by the answers to
        // identical bodies). A task stays stored from submit on: Q1's rule.
        if wereNeverAnswered(lostKeys) { return "Q1" }
        let bodies = Set(twins.map(\.body))
        // A conflict that removed the task is Q4's finding (a conflict keeps the task for a
        // person), as the fixed Q5 reports it blocked by Q4, not a second rule for one bug.
        let conflicted = terminalAnswer.contains { bodies.contains($0.key.body) && capabilities.isConflict($0.value.status) }
            || retryableAnswer.contains { bodies.contains($0.key.body) && capabilities.isConflict($0.value.status) }
        if conflicted { return "Q4" }
        if unknownOutcome.keys.contains(where: { bodies.contains($0.body) })
            || unknownBeforeCrash.contains(where: { bodies.contains($0.body) })
        {
            return "Q2"
        }
        return "Q5"
    }

    /// The keys `twins` were stored or sent under that no stored task holds any more, leaving
    /// out keys that met a success: those are operations done (an identical twin of the lost
    /// one), not lost.
    private func lostKeys(of twins: [QueueOperation], live: [PersistedTask]) -> Set<String> {
        let heldKeys = Set(live.filter { task in twins.contains { covers(task, $0) } }.compactMap(\.key))
        return Set(twins.flatMap { keysByBody[$0.body, default: []] }).subtracting(heldKeys)
            .subtracting(successKeys)
    }

    /// Whether `lostKeys` are known and none of them was ever answered.
    private func wereNeverAnswered(_ lostKeys: Set<String>) -> Bool {
        let answeredKeys = Set(harness.answered.compactMap(\.send.request.idempotencyKey))
        return !lostKeys.isEmpty && lostKeys.isDisjoint(with: answeredKeys)
    }

    /// Whether losing `lost` is Q11's finding, the one place the explorer decides it: a submit
    /// after a relaunch (the step just taken) displaced tasks restored from storage, none of
    /// them that submit itself.
    private func submitAfterRelaunchDisplaced(_ lost: [QueueOperation]) -> Bool {
        guard crashes > 0, let submitted = justSubmitted, !lost.isEmpty else { return false }
        return !lost.contains(submitted)
    }

    /// Whether `task` holds `operation`: by operation ID, by body, or (for a queue that merges
    /// updates) as a later update of the same entity.
    private func covers(_ task: PersistedTask, _ operation: QueueOperation) -> Bool {
        if task.operationID == operation.id || task.body == operation.body { return true }
        guard capabilities.coalescesUpdates, let entity = operation.entity,
            let position = operations.firstIndex(of: operation)
        else { return false }
        return operations[position...].contains { $0.entity == entity && $0.body == task.body }
    }

    /// How many operations with `body` met a success (a key they were stored or sent under got
    /// a 2xx; for a merging queue, also a later update of the same entity).
    private func succeeded(body: Data) -> Int {
        let twins = operations(withBody: body)
        var keys = keysByBody[body, default: []]
        if capabilities.coalescesUpdates, let first = twins.first, let entity = first.entity,
            let position = operations.firstIndex(of: first)
        {
            for later in operations[position...] where later.entity == entity {
                keys.formUnion(keysByBody[later.body, default: []])
            }
        }
        return min(twins.count, keys.intersection(successKeys).count)
    }

    private func describe(_ tasks: [PersistedTask]) -> String {
        tasks.isEmpty ? "no task" : tasks.map(\.description).joined(separator: "; ")
    }

    /// The `id` field of a JSON body: the entity an update changes.
    static func entity(of body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        return object["id"] as? String
    }
}
