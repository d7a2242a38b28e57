import Foundation

/// The app's outbox: entries in memory behind a lock, mirrored to one JSON file on every change.
///
/// `sync()` drains it: it sends due entries oldest first, one lease per entry so that two syncs
/// (foreground resume and background refresh) never send one entry twice at once, and waits on
/// the injected clock for the next entry that is backing off. It returns when nothing is left
/// to send, or when it is cancelled.
final class SyncOutbox: @unchecked Sendable {
    typealias Post = @Sendable (_ idempotencyKey: String, _ body: Data) async throws -> Int

    static let baseRetryDelay: Duration = .seconds(1)
    static let maxRetryDelay: Duration = .seconds(300)
    static let retryableStatusCodes: Set<Int> = [408, 429]

    private let lock = NSLock()
    private let fileURL: URL
    private let post: Post
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date

    // Guarded by `lock`.
    private var entries: [SyncOutboxEntry]
    private var leased: Set<UUID> = []
    private var logLines: [String] = []

    init(
        directory: URL, post: @escaping Post,
        clock: any Clock<Duration> = ContinuousClock(), now: @escaping @Sendable () -> Date = Date.init
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        fileURL = directory.appendingPathComponent("outbox.json")
        entries = try Self.load(from: fileURL)
        self.post = post
        self.clock = clock
        self.now = now
    }

    var log: [String] { lock.withLock { logLines } }

    // MARK: Enqueueing

    func enqueue(label: String, body: Data) throws {
        try lock.withLock {
            let entry = SyncOutboxEntry(
                id: UUID(), label: label, idempotencyKey: UUID().uuidString, body: body,
                createdAt: now(), state: .pending, attempts: 0, nextAttemptAt: nil, lastError: nil)
            var updated = entries
            updated.append(entry)
            try persist(updated)
            entries = updated
            logLines.append("\(label): queued")
        }
    }

    // MARK: Syncing

    private enum Step {
        case send(SyncOutboxEntry)
        case wait(Duration)
        case idle
    }

    func sync() async {
        while !Task.isCancelled {
            switch nextStep() {
            case .send(let entry):
                await deliver(entry)
            case .wait(let delay):
                do { try await clock.sleep(for: delay) } catch { return }
            case .idle:
                return
            }
        }
    }

    /// Leases the oldest due entry, or says how long until the next one is due.
    private func nextStep() -> Step {
        lock.withLock {
            let current = now()
            let open = entries.filter { $0.state == .pending && !leased.contains($0.id) }
            if let due = open.filter({ ($0.nextAttemptAt ?? .distantPast) <= current })
                .min(by: { $0.createdAt < $1.createdAt }) {
                leased.insert(due.id)
                return .send(due)
            }
            if let soonest = open.compactMap(\.nextAttemptAt).min() {
                return .wait(.seconds(soonest.timeIntervalSince(current)))
            }
            return .idle
        }
    }

    private func deliver(_ entry: SyncOutboxEntry) async {
        let outcome: Result<Int, any Error>
        do {
            let status = try await post(entry.idempotencyKey, entry.body)
            outcome = .success(status)
        } catch {
            outcome = .failure(error)
        }
        lock.withLock {
            defer { leased.remove(entry.id) }
            if case .failure(let error) = outcome, error is CancellationError { return }
            guard let index = entries.firstIndex(where: { $0.id == entry.id }) else { return }
            var updated = entries
            updated[index].attempts += 1
            let label = entry.label
            switch Self.classify(outcome) {
            case .delivered(let status):
                updated.remove(at: index)
                logLines.append("\(label): delivered (HTTP \(status))")
            case .retry(let reason):
                let delay = Self.retryDelay(afterAttempt: updated[index].attempts)
                updated[index].nextAttemptAt = now().addingTimeInterval(delay.syncTimeInterval)
                updated[index].lastError = reason
                logLines.append("\(label): attempt \(updated[index].attempts) failed: \(reason); retry in \(delay)")
            case .stop(let reason):
                updated[index].state = .needsAttention
                updated[index].nextAttemptAt = nil
                updated[index].lastError = reason
                logLines.append("\(label): stopped: \(reason)")
            }
            do {
                try persist(updated)
                entries = updated
            } catch {
                logLines.append("\(label): cannot save the outbox (\(error))")
            }
        }
    }

    /// Exponential backoff after an unknown outcome: 1 s, 2 s, 4 s, … never more than five minutes.
    static func retryDelay(afterAttempt attempt: Int) -> Duration {
        min(maxRetryDelay, baseRetryDelay * (1 << (attempt - 1)))
    }

    private enum Verdict {
        case delivered(Int)
        case retry(String)
        case stop(String)
    }

    private static func classify(_ outcome: Result<Int, any Error>) -> Verdict {
        switch outcome {
        case .success(let status) where (200..<300).contains(status):
            return .delivered(status)
        case .success(409):
            return .stop("HTTP 409: this idempotency key was already used with another body")
        case .success(let status) where retryableStatusCodes.contains(status) || (500..<600).contains(status):
            return .retry("HTTP \(status)")
        case .success(let status):
            return .stop("HTTP \(status): rejected")
        case .failure(let error):
            return .retry("no answer (\(error))")
        }
    }

    // MARK: Storage

    private func persist(_ snapshot: [SyncOutboxEntry]) throws {
        try JSONEncoder().encode(snapshot).write(to: fileURL, options: .atomic)
    }

    private static func load(from url: URL) throws -> [SyncOutboxEntry] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try JSONDecoder().decode([SyncOutboxEntry].self, from: Data(contentsOf: url))
    }

    /// The entries stored under an outbox directory (the support screen reads them this way).
    static func storedEntries(in directory: URL) throws -> [SyncOutboxEntry] {
        try load(from: directory.appendingPathComponent("outbox.json"))
    }
}

private extension Duration {
    var syncTimeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
