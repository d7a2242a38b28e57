import Foundation

/// Offline write queue for expense-report mutations.
///
/// - Every mutation is written to disk (payload, idempotency key, creation time) before
///   `enqueue` returns, so nothing is sent that is not stored.
/// - `flush()` sends per-entity lanes concurrently (a task group over entities); inside a lane
///   the mutations go out strictly one after another, in enqueue order. A lane's head is retried
///   (same key, same bytes) after unknown outcomes with capped exponential backoff on the
///   injected clock; the mutations behind it wait.
/// - Only a 2xx removes a mutation. A permanent rejection (409 key reused with another payload,
///   other non-retryable 4xx) keeps it, with a visible reason, and it is never sent again
///   automatically; the entity's later mutations keep flowing (they carry full state).
/// - Two `flush()` calls at once (foreground resume + background sync) never send one mutation
///   twice: a lane is leased in memory, synchronously, before the first `await` of a pass. A
///   lease dies with the process, which is exactly when it must be released.
public actor EntityLaneQueue {
    public static let idempotencyHeader = "Idempotency-Key"

    private let store: MutationStore
    private let client: any MutationHTTPClient
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let retryPolicy: LaneRetryPolicy
    private let logSink: (@Sendable (String) -> Void)?

    /// Entities whose lane a running pass is draining (process memory only).
    private var activeLanes: Set<String> = []
    private var log: [String] = []

    public init(
        directory: URL,
        client: any MutationHTTPClient,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        retryPolicy: LaneRetryPolicy = LaneRetryPolicy(),
        logSink: (@Sendable (String) -> Void)? = nil
    ) throws {
        self.store = MutationStore(directory: directory)
        try store.prepare()
        self.client = client
        self.clock = clock
        self.now = now
        self.retryPolicy = retryPolicy
        self.logSink = logSink
    }

    // MARK: Enqueueing

    /// Stores a mutation and returns it. It is durable (with its idempotency key) when this returns.
    @discardableResult
    public func enqueue(
        _ kind: MutationKind, entityID: String, payload: Data, clientTag: String? = nil
    ) throws -> PendingMutation {
        let existing = try store.loadAll()
        let mutation = PendingMutation(
            id: UUID(), entityID: entityID, kind: kind, payload: payload,
            idempotencyKey: UUID(), createdAt: now(),
            sequence: (existing.map(\.sequence).max() ?? 0) + 1,
            clientTag: clientTag, attemptCount: 0)
        try store.save(mutation)
        record("queued \(kind.rawValue) \(describe(mutation)) key=\(mutation.idempotencyKey.uuidString.prefix(8))")
        return mutation
    }

    /// Convenience for the app: encode a report draft and queue its creation under a new local ID.
    @discardableResult
    public func create<Report: Encodable>(_ report: Report, entityID: String = UUID().uuidString) throws -> PendingMutation {
        try enqueue(.create, entityID: entityID, payload: JSONEncoder().encode(report))
    }

    // MARK: Reading state (UI, diagnostics)

    public func pendingMutations() throws -> [PendingMutation] { try store.loadAll() }

    public func mutationsNeedingAttention() throws -> [PendingMutation] {
        try store.loadAll().filter(\.needsAttention)
    }

    /// The user gave up on a rejected mutation.
    public func discard(_ id: UUID) throws {
        guard let mutation = try store.load(id), mutation.needsAttention else { return }
        try store.delete(id)
        record("discarded \(describe(mutation))")
    }

    public var diagnosticLog: [String] { log }

    // MARK: Sending

    /// One sending pass: drains every lane that is not being drained by another pass. Returns
    /// when each lane it took is empty, blocked, or the task was cancelled.
    public func flush() async throws {
        let mutations = try store.loadAll()
        var lanes: [String] = []
        for mutation in mutations where !mutation.needsAttention
            && !activeLanes.contains(mutation.entityID) && !lanes.contains(mutation.entityID) {
            lanes.append(mutation.entityID)
        }
        // Lease before the first suspension point: a second pass started right now sees them.
        activeLanes.formUnion(lanes)
        guard !lanes.isEmpty else { return }

        let errors = await withTaskGroup(of: (any Error)?.self, returning: [any Error].self) { group in
            for lane in lanes {
                group.addTask { await self.drainLane(lane) }
            }
            var errors: [any Error] = []
            for await error in group {
                if let error { errors.append(error) }
            }
            return errors
        }
        if let first = errors.first { throw first }
    }

    private enum Outcome {
        case delivered(Int)
        case retryLater(String)
        case rejected(String)
    }

    private func drainLane(_ entityID: String) async -> (any Error)? {
        defer { activeLanes.remove(entityID) }
        var waitedFor: UUID?
        do {
            while true {
                try Task.checkCancellation()
                // Re-read storage every time: the head may have changed, and new mutations of
                // this entity submitted meanwhile join the lane.
                guard var head = try store.loadAll().first(where: {
                    $0.entityID == entityID && !$0.needsAttention
                }) else { return nil }

                // A backoff left by an earlier pass (or an earlier launch) still applies.
                if head.id != waitedFor, let due = head.nextAttemptAt {
                    let remaining = due.timeIntervalSince(now())
                    if remaining > 0 {
                        try await clock.sleep(for: .seconds(remaining))
                        waitedFor = head.id
                        continue
                    }
                }

                head.attemptCount += 1
                head.lastAttemptAt = now()
                try store.save(head)  // the attempt is on disk before the request leaves

                let outcome: Outcome
                do {
                    let response = try await client.perform(request(for: head))
                    outcome = classify(response.statusCode)
                } catch is CancellationError {
                    record("\(describe(head)) attempt \(head.attemptCount) cancelled; stays queued")
                    return nil
                } catch {
                    outcome = .retryLater("no response (\(type(of: error)): \(error))")
                }

                switch outcome {
                case .delivered(let status):
                    try store.delete(head.id)
                    record("\(describe(head)) delivered (HTTP \(status)) after \(head.attemptCount) attempt(s)")
                    waitedFor = nil

                case .rejected(let reason):
                    head.blockedReason = reason
                    head.lastError = reason
                    head.nextAttemptAt = nil
                    try store.save(head)
                    record("\(describe(head)) needs attention: \(reason)")
                    waitedFor = nil

                case .retryLater(let reason):
                    let delay = retryPolicy.delay(afterAttempt: head.attemptCount)
                    head.lastError = reason
                    head.nextAttemptAt = now().addingTimeInterval(delay.laneTimeInterval)
                    try store.save(head)
                    record("\(describe(head)) attempt \(head.attemptCount): \(reason); retrying in \(delay)")
                    try await clock.sleep(for: delay)
                    waitedFor = head.id
                }
            }
        } catch is CancellationError {
            return nil
        } catch {
            record("lane \(entityID) stopped: storage error \(error)")
            return error
        }
    }

    private func request(for mutation: PendingMutation) -> MutationHTTPRequest {
        let path: String
        let method: String
        switch mutation.kind {
        case .create:
            method = "POST"
            path = "/v1/expense-reports"
        case .update:
            method = "PUT"
            path = "/v1/expense-reports/\(mutation.entityID)"
        }
        return MutationHTTPRequest(
            method: method, path: path,
            headers: [
                Self.idempotencyHeader: mutation.idempotencyKey.uuidString,
                "Content-Type": "application/json",
            ],
            body: mutation.payload)
    }

    private func classify(_ status: Int) -> Outcome {
        switch status {
        case 200..<300:
            return .delivered(status)
        case 409:
            return .rejected("HTTP 409: the server holds a different payload for this idempotency key")
        case 408, 429:
            return .retryLater("HTTP \(status)")
        case 400..<500:
            return .rejected("HTTP \(status): rejected by the server")
        default:
            // 5xx (and anything unexpected): the write may or may not have happened.
            return .retryLater("HTTP \(status)")
        }
    }

    private func describe(_ mutation: PendingMutation) -> String {
        let tag = mutation.clientTag.map { " [\($0)]" } ?? ""
        return "mutation \(mutation.id.uuidString.prefix(8))\(tag) entity=\(mutation.entityID)"
    }

    /// Never logs payloads: they can hold card numbers and personal data.
    private func record(_ line: String) {
        log.append(line)
        if log.count > 500 { log.removeFirst(log.count - 500) }
        logSink?(line)
    }
}
