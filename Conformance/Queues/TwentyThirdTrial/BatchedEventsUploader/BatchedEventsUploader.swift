import Foundation

/// Uploads the app's events (orders, profile edits) in batches, oldest first, from a JSON file in
/// Application Support. An edit to an entity whose update was never sent replaces that update's
/// body; a newer event for an entity waits behind an older one still on its way.
@MainActor
final class BatchedEventsUploader {
    typealias Post = @Sendable (_ key: String, _ body: Data) async throws -> BatchedEventsUploaderReply
    private typealias Support = BatchedEventsUploaderSupport
    private typealias Event = BatchedEventsUploaderEvent

    private(set) var needsSignIn = false          // the "Sign in again to finish syncing" banner
    private(set) var diagnostics: [String] = []   // the support screen's log; bodies only redacted

    private let directory: URL
    private let sensitiveFields: Set<String>
    private let now: @Sendable () -> Date
    private let post: Post
    private var snapshot: Support.Snapshot
    private var claimed: Set<Int> = []   // events a running batch owns (process memory only)

    init(directory: URL, sensitiveFields: Set<String>, now: @escaping @Sendable () -> Date, post: @escaping Post) throws {
        self.directory = directory
        self.sensitiveFields = sensitiveFields
        self.now = now
        self.post = post
        self.snapshot = try Support.load(from: directory)
        needsSignIn = snapshot.events.contains { $0.state == .awaitingSignIn }
    }

    /// Records one user action; the event is in the file before this returns.
    func enqueue(operationID: String, entity: String?, body: Data, sensitiveFields extra: Set<String> = []) throws {
        let shown = Support.redacted(body, hiding: sensitiveFields.union(extra))
        if let entity, let index = snapshot.events.lastIndex(where: { isMergeTarget($0, entity: entity) }) {
            snapshot.events[index].body = body
            snapshot.events[index].operationID = operationID
            try Support.save(snapshot, to: directory)
            return log("merged \(operationID) into unsent update #\(snapshot.events[index].seq) of \(entity): \(shown)")
        }
        let event = Event(
            seq: snapshot.nextSeq, operationID: operationID, entity: entity, key: UUID().uuidString, body: body,
            createdAt: Support.stamp(now()), state: .pending, attempts: 0, firstSentAt: nil, nextAttemptAt: nil,
            note: nil, stuckReported: false)
        snapshot.nextSeq += 1
        snapshot.events.append(event)
        try Support.save(snapshot, to: directory)
        log("queued \(operationID) #\(event.seq) key=\(event.key): \(shown)")
    }

    /// One sync: batches of due events, oldest first, one at a time; a second sync finding all claimed returns.
    func uploadDue() async {
        while !Task.isCancelled {
            let batch = claimBatch()
            if batch.isEmpty { break }
            for seq in batch where !Task.isCancelled {
                await upload(seq)
                claimed.remove(seq)
            }
            claimed.subtract(batch)
        }
        reportStuckEvents()
    }

    /// The session layer calls this after the user signed in again (a new action by the user).
    func resumeAfterSignIn() throws {
        needsSignIn = false
        for index in snapshot.events.indices where snapshot.events[index].state == .awaitingSignIn {
            snapshot.events[index].state = .pending
            snapshot.events[index].nextAttemptAt = nil
        }
        try Support.save(snapshot, to: directory)
    }

    /// Only an update nobody sent (or is about to send) takes a newer body: no key carries two bodies.
    private func isMergeTarget(_ event: Event, entity: String) -> Bool {
        event.entity == entity && event.state == .pending && event.firstSentAt == nil && !claimed.contains(event.seq)
    }

    private func claimBatch() -> [Int] {
        let moment = now()
        var busyEntities: Set<String> = []
        var batch: [Int] = []
        for event in snapshot.events.sorted(by: Support.oldestFirst) where event.state == .pending {
            let laneBusy = event.entity.map { busyEntities.contains($0) } ?? false
            if let entity = event.entity { busyEntities.insert(entity) }
            let due = event.nextAttemptAt.flatMap(Support.date).map { $0 <= moment } ?? true
            guard !laneBusy, due, !claimed.contains(event.seq) else { continue }
            batch.append(event.seq)
            if batch.count == Support.batchSize { break }
        }
        claimed.formUnion(batch)
        return batch
    }

    private func upload(_ seq: Int) async {
        guard let index = position(of: seq), snapshot.events[index].state == .pending else { return }
        if snapshot.events[index].firstSentAt == nil {   // durable before the request: no merge after
            snapshot.events[index].firstSentAt = Support.stamp(now())
            do { try Support.save(snapshot, to: directory) } catch {
                snapshot.events[index].firstSentAt = nil
                return log("could not mark #\(seq) as sent; left for the next sync")
            }
        }
        let event = snapshot.events[index]
        let outcome: Result<BatchedEventsUploaderReply, any Error>
        do { outcome = .success(try await post(event.key, event.body)) } catch { outcome = .failure(error) }
        guard let after = position(of: seq) else { return }
        snapshot.events[after] = applying(outcome, to: snapshot.events[after])
        try? Support.save(snapshot, to: directory)
    }

    private func applying(_ outcome: Result<BatchedEventsUploaderReply, any Error>, to original: Event) -> Event {
        var event = original
        switch outcome {
        case .success(let reply) where (200..<300).contains(reply.status):
            event.state = .sent
            log("sent \(event.operationID) #\(event.seq) key=\(event.key)")
        case .success(let reply) where reply.status == 401:
            // Session expired: keep the event as it is, count no attempt, wait for a sign-in.
            event.state = .awaitingSignIn
            event.note = "HTTP 401: waiting for the user to sign in again"
            needsSignIn = true
            log("\(event.operationID) #\(event.seq) held: session expired (HTTP 401)")
        case .success(let reply) where reply.status == 408 || reply.status == 429 || !(400..<500).contains(reply.status):
            event.attempts += 1
            scheduleRetry(&event, because: "HTTP \(reply.status)")
        case .success(let reply):
            event.attempts += 1
            event.state = .stopped
            event.note = reply.status == 409
                ? "HTTP 409: this key was already used with another body"
                : "HTTP \(reply.status)\(Support.errorCode(in: reply.body))"
            log("\(event.operationID) #\(event.seq) stopped: \(event.note ?? "")")
        case .failure(let error):
            event.attempts += 1
            scheduleRetry(&event, because: "no response (\(type(of: error)))")
        }
        return event
    }

    /// Exponential backoff capped at a minute, kept as a due time (+1 ms: the string keeps only ms).
    private func scheduleRetry(_ event: inout Event, because reason: String) {
        let delay = min(Support.backoffCap, Support.baseDelay * pow(2, Double(min(max(event.attempts - 1, 0), 16))))
        event.nextAttemptAt = Support.stamp(now().addingTimeInterval(delay + 0.001))
        event.note = reason
        log("\(event.operationID) #\(event.seq) retry in \(Int(delay)) s after \(reason)")
    }

    private func reportStuckEvents() {
        let moment = now()
        for index in snapshot.events.indices where snapshot.events[index].state == .pending {
            let event = snapshot.events[index]
            guard !event.stuckReported, let first = event.firstSentAt, let since = Support.date(first),
                  moment.timeIntervalSince(since) >= Support.stuckAfter else { continue }
            snapshot.events[index].stuckReported = true
            log("\(event.operationID) #\(event.seq) stuck since \(first) after \(event.attempts) attempts; last: \(event.note ?? "none")")
        }
        try? Support.save(snapshot, to: directory)
    }

    private func position(of seq: Int) -> Int? { snapshot.events.firstIndex { $0.seq == seq } }

    private func log(_ message: String) {
        diagnostics.append("\(Support.stamp(now())) \(message)")
        if diagnostics.count > 500 { diagnostics.removeFirst(diagnostics.count - 500) }
    }
}
