// PunchClockOutbox.swift — app code (target: ShiftKit)
//
// Clock-in / clock-out punches from a workforce app, written offline-first: a punch is stored
// (with its idempotency key) before it is sent, sent one at a time from a serial DispatchQueue
// with a completion-handler HTTP client, and retried on a fixed ladder of due times kept with
// the punch. The app delegate calls `suspend()` from applicationDidEnterBackground (cancelling
// the request on the wire, so the process can be suspended cleanly) and `resume()` from
// applicationWillEnterForeground.

import Foundation

/// The persistence layer the outbox writes through (Core Data in the app; an in-memory
/// store object in unit tests). Every method is a committed write or a consistent read.
public final class PunchStore: @unchecked Sendable {
    public struct Record: Sendable, Equatable {
        public enum Status: String, Sendable { case pending, needsReview }
        public let id: UUID
        public let label: String
        public let idempotencyKey: String
        public let body: Data
        public let createdAt: Date
        public var attempts: Int
        public var status: Status
        public var nextAttemptAt: Date
        public var note: String?
    }

    private let lock = NSLock()
    private var rows: [UUID: Record] = [:]

    public init() {}

    public func put(_ record: Record) { lock.withLock { rows[record.id] = record } }
    public func get(_ id: UUID) -> Record? { lock.withLock { rows[id] } }
    public func delete(_ id: UUID) { lock.withLock { _ = rows.removeValue(forKey: id) } }
    public func all() -> [Record] { lock.withLock { Array(rows.values) } }
}

public final class PunchClockOutbox: @unchecked Sendable {
    public typealias StatusCompletion = @Sendable (Result<Int, any Error>) -> Void
    /// Starts one POST and returns a way to cancel it (URLSessionDataTask.cancel in the app).
    /// Completions may arrive on any thread.
    public typealias Post = @Sendable (_ key: String, _ body: Data, _ completion: @escaping StatusCompletion) -> RequestHandle

    public struct RequestHandle: Sendable {
        public let cancel: @Sendable () -> Void
        public init(cancel: @escaping @Sendable () -> Void) { self.cancel = cancel }
    }

    /// Seconds to wait after the 1st, 2nd, … failed attempt; the last step repeats.
    static let retryLadder: [TimeInterval] = [1, 5, 15, 30, 60]
    static let retryableClientErrors: Set<Int> = [408, 429]

    private let queue = DispatchQueue(label: "com.example.shiftkit.punch-outbox")
    private let store: PunchStore
    private let post: Post
    private let now: @Sendable () -> Date

    // Confined to `queue`.
    private var isDraining = false
    private var isSuspended = false
    private var drainWaiters: [@Sendable () -> Void] = []
    private var leased: Set<UUID> = []
    private var inFlight: [UUID: RequestHandle] = [:]
    private var logLines: [String] = []

    public init(store: PunchStore, post: @escaping Post, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.post = post
        self.now = now
    }

    // MARK: Public API

    /// Stores the punch; the completion runs once it is committed.
    public func enqueue(_ body: Data, label: String,
                        completion: @escaping @Sendable (Result<UUID, any Error>) -> Void) {
        queue.async {
            let record = PunchStore.Record(
                id: UUID(), label: label,
                idempotencyKey: "pc_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(),
                body: body, createdAt: self.now(), attempts: 0, status: .pending,
                nextAttemptAt: .distantPast, note: nil)
            self.store.put(record)
            self.logLine("queued \(label)")
            completion(.success(record.id))
        }
    }

    /// Sends every due punch, one at a time. A flush while another runs joins it: its
    /// completion runs when the running drain has nothing left to send.
    public func flush(completion: @escaping @Sendable () -> Void) {
        queue.async {
            self.drainWaiters.append(completion)
            guard !self.isDraining else { return }
            self.isDraining = true
            self.drainNext()
        }
    }

    public func suspend() {
        queue.async {
            self.isSuspended = true
            self.inFlight.values.forEach { $0.cancel() }
        }
    }

    public func resume() {
        queue.async { self.isSuspended = false }
        flush {}
    }

    /// Returns once every block queued before it has run.
    public func barrier() { queue.sync {} }

    public var log: [String] { queue.sync { logLines } }

    // MARK: Draining (on `queue`)

    private func drainNext() {
        guard !isSuspended, let punch = nextDue() else { return finishDrain() }
        var sent = punch
        sent.attempts += 1
        store.put(sent)
        leased.insert(punch.id)
        inFlight[punch.id] = post(punch.idempotencyKey, punch.body) { result in
            self.queue.async { self.handle(result, for: punch.id) }
        }
    }

    private func nextDue() -> PunchStore.Record? {
        let now = self.now()
        return store.all()
            .filter { $0.status == .pending && !leased.contains($0.id) && $0.nextAttemptAt <= now }
            .min { $0.createdAt < $1.createdAt }
    }

    private func finishDrain() {
        isDraining = false
        let waiters = drainWaiters
        drainWaiters = []
        waiters.forEach { $0() }
    }

    private func handle(_ result: Result<Int, any Error>, for id: UUID) {
        inFlight[id] = nil
        if case .failure(let error) = result, Self.isCancellation(error) {
            // Cancelled on purpose by suspend(); resume() flushes again.
            logLine("paused upload of \(store.get(id)?.label ?? "?")")
            return
        }
        defer {
            leased.remove(id)
            drainNext()
        }
        guard var punch = store.get(id) else { return }
        switch result {
        case .success(let status) where (200..<300).contains(status):
            store.delete(id)
            logLine("sent \(punch.label) (HTTP \(status), attempt \(punch.attempts))")
        case .success(409):
            punch.status = .needsReview
            punch.note = "HTTP 409: this key was already used for a different punch"
            store.put(punch)
            logLine("needs review: \(punch.label) (HTTP 409)")
        case .success(let status) where Self.retryableClientErrors.contains(status):
            scheduleRetry(&punch, reason: "HTTP \(status)")
        case .success(let status) where (400..<500).contains(status):
            punch.status = .needsReview
            punch.note = "HTTP \(status): rejected"
            store.put(punch)
            logLine("needs review: \(punch.label) (HTTP \(status))")
        case .success(let status):                 // 5xx, 3xx: outcome unknown
            scheduleRetry(&punch, reason: "HTTP \(status)")
        case .failure(let error):                  // offline, timeout, dropped connection
            scheduleRetry(&punch, reason: "network: \(type(of: error))")
        }
    }

    private func scheduleRetry(_ punch: inout PunchStore.Record, reason: String) {
        let ladder = Self.retryLadder
        let delay = ladder[min(max(punch.attempts - 1, 0), ladder.count - 1)]
        punch.nextAttemptAt = now().addingTimeInterval(delay)
        punch.note = reason
        store.put(punch)
        logLine("retry \(punch.label) in \(Int(delay)) s (\(reason))")
    }

    private static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let urlError = error as? URLError, urlError.code == .cancelled { return true }
        let nsError = error as NSError
        return nsError.domain == NSURLErrorDomain && nsError.code == NSURLErrorCancelled
    }

    private func logLine(_ line: String) {
        logLines.append(line)
        if logLines.count > 300 { logLines.removeFirst(logLines.count - 300) }
    }
}
