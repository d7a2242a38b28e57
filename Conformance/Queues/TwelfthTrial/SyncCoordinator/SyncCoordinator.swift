import Foundation

/// Keeps local edits and pushes them to the server when a sync runs.
///
/// All state lives on `stateQueue`; the pending changes are written to one property list after
/// every change. Edits to the same entity that have not gone out yet are coalesced into one
/// PATCH carrying the newest body. Creates are never merged.
final class SyncCoordinator: @unchecked Sendable {
    typealias Sleep = @Sendable (Duration) async throws -> Void

    /// Fixed delay before a change that failed with a temporary error is tried again.
    static let retryDelay: TimeInterval = 5

    private let file: PendingChangeFile
    private let client: any HTTPClient
    private let sleep: Sleep
    private let now: @Sendable () -> Date
    private let stateQueue = DispatchQueue(label: "SyncCoordinator.state")

    // Guarded by `stateQueue`.
    private var changes: [UUID: PendingChange]
    private var sendingID: UUID?
    private var isSyncing = false
    private var syncWaiters: [@Sendable (Date?) -> Void] = []

    init(
        fileURL: URL,
        client: any HTTPClient,
        sleep: @escaping Sleep,
        now: @escaping @Sendable () -> Date
    ) throws {
        self.file = PendingChangeFile(url: fileURL)
        self.client = client
        self.sleep = sleep
        self.now = now
        self.changes = try file.load()
    }

    /// The stored changes, read straight from disk.
    static func storedChanges(at fileURL: URL) throws -> [PendingChange] {
        Array(try PendingChangeFile(url: fileURL).load().values)
    }

    // MARK: - Recording changes

    @discardableResult
    func enqueueCreate(path: String, body: Data, label: String) throws -> UUID {
        try stateQueue.sync {
            let change = makeChange(kind: .create, path: path, body: body, label: label)
            try commit { $0[change.id] = change }
            return change.id
        }
    }

    /// Records an edit. If an edit to the same entity is still waiting, its body is replaced
    /// and it keeps its key and its place in line.
    @discardableResult
    func enqueueUpdate(entityID: String, path: String, body: Data, label: String) throws -> UUID {
        try stateQueue.sync {
            let kind = PendingChange.Kind.update(entityID: entityID)
            let waiting = changes.values
                .filter { $0.kind == kind && $0.state == .pending && $0.id != sendingID }
                .max { $0.createdAt < $1.createdAt }
            if var merged = waiting {
                merged.body = body
                merged.label = label
                try commit { $0[merged.id] = merged }
                return merged.id
            }
            let change = makeChange(kind: kind, path: path, body: body, label: label)
            try commit { $0[change.id] = change }
            return change.id
        }
    }

    /// Changes the server refused, for the "unsynced changes" screen.
    func changesNeedingAttention() -> [PendingChange] {
        stateQueue.sync {
            changes.values.filter { $0.state == .needsAttention }.sorted { $0.createdAt < $1.createdAt }
        }
    }

    /// Returns once every block already queued on the state queue has run.
    func waitUntilIdle() {
        stateQueue.sync {}
    }

    // MARK: - Syncing

    /// Pushes pending changes until none is left that could still succeed, waiting
    /// `retryDelay` between rounds when the server or the network fails.
    func flush() async {
        while !Task.isCancelled {
            let nextRetry = await withCheckedContinuation { continuation in
                flush { continuation.resume(returning: $0) }
            }
            guard let nextRetry else { return }
            let seconds = max(nextRetry.timeIntervalSince(now()), 0.001)
            do {
                try await sleep(.milliseconds(Int((seconds * 1_000).rounded(.up))))
            } catch {
                return
            }
        }
    }

    /// One sync round: sends every change that is due, one at a time, oldest first.
    /// `completion` gets the earliest time a change that is still pending may be retried
    /// (`nil` if nothing is waiting). A call while a round is running joins that round.
    func flush(completion: @escaping @Sendable (Date?) -> Void) {
        stateQueue.async {
            self.syncWaiters.append(completion)
            guard !self.isSyncing else { return }
            self.isSyncing = true
            self.sendNextDue()
        }
    }

    // MARK: - Private (on stateQueue)

    private func makeChange(kind: PendingChange.Kind, path: String, body: Data, label: String) -> PendingChange {
        PendingChange(
            id: UUID(), label: label, kind: kind, path: path, body: body,
            idempotencyKey: UUID().uuidString, createdAt: now(), state: .pending,
            attempts: 0, notBefore: nil, lastError: nil)
    }

    /// Applies `update` to a copy, writes it, and only then makes it the current state.
    private func commit(_ update: (inout [UUID: PendingChange]) -> Void) throws {
        var updated = changes
        update(&updated)
        try file.save(updated)
        changes = updated
    }

    private func sendNextDue() {
        let current = now()
        let due = changes.values
            .filter { $0.state == .pending && ($0.notBefore ?? .distantPast) <= current }
            .min { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
        guard var change = due else {
            finishSync()
            return
        }

        change.attempts += 1
        do {
            try commit { $0[change.id] = change }
        } catch {
            finishSync()
            return
        }
        sendingID = change.id

        let request = HTTPRequest(
            method: change.method, path: change.path,
            headers: ["Idempotency-Key": change.idempotencyKey, "Content-Type": "application/json"],
            body: change.body)
        let id = change.id
        client.send(request) { result in
            self.stateQueue.async { self.handle(result, for: id) }
        }
    }

    private func handle(_ result: Result<(status: Int, body: Data), any Error>, for id: UUID) {
        sendingID = nil
        guard var change = changes[id] else {
            sendNextDue()
            return
        }

        switch result {
        case .success(let response) where (200..<300).contains(response.status):
            try? commit { $0[id] = nil }
            sendNextDue()
            return
        case .success(let response) where response.status == 409:
            change.state = .needsAttention
            change.lastError = "HTTP 409: the server holds a different request under this key"
        case .success(let response) where Self.isRetryable(response.status):
            change.notBefore = now().addingTimeInterval(Self.retryDelay)
            change.lastError = "HTTP \(response.status)"
        case .success(let response):
            change.state = .needsAttention
            change.lastError = "HTTP \(response.status)"
        case .failure(let error):
            change.notBefore = now().addingTimeInterval(Self.retryDelay)
            change.lastError = "network error (\(type(of: error)))"
        }
        try? commit { $0[id] = change }
        sendNextDue()
    }

    private static func isRetryable(_ status: Int) -> Bool {
        status == 408 || status == 429 || (500..<600).contains(status)
    }

    private func finishSync() {
        isSyncing = false
        let nextRetry = changes.values
            .filter { $0.state == .pending }
            .compactMap(\.notBefore)
            .min()
        let waiters = syncWaiters
        syncWaiters = []
        for waiter in waiters { waiter(nextRetry) }
    }
}
