// Written from the kit's docs alone by an outside trial (its third round), unchanged but for
// its names: a UserDefaults outbox (one dictionary under one key, bodies kept as dictionaries and
// re-encoded with JSONSerialization when sent), retries armed through a timer seam.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - Seams

/// What the outbox needs from UserDefaults (values are property-list values).
protocol OutboxKeyValueStore: AnyObject, Sendable {
    func dictionary(forKey key: String) -> [String: Any]?
    func set(_ value: Any?, forKey key: String)
}

/// UserDefaults is thread-safe; the wrapper only says so to the compiler.
final class OutboxUserDefaultsStore: OutboxKeyValueStore, @unchecked Sendable {
    private let defaults: UserDefaults
    init(_ defaults: UserDefaults = .standard) { self.defaults = defaults }
    func dictionary(forKey key: String) -> [String: Any]? { defaults.dictionary(forKey: key) }
    func set(_ value: Any?, forKey key: String) { defaults.set(value, forKey: key) }
}

/// A one-shot timer (production: a DispatchSourceTimer wrapper).
protocol OutboxRetryTimer: AnyObject, Sendable {
    func schedule(after seconds: TimeInterval, _ fire: @escaping @Sendable () -> Void)
    func cancel()
}

final class OutboxDispatchRetryTimer: OutboxRetryTimer, @unchecked Sendable {
    private let queue: DispatchQueue
    private var source: DispatchSourceTimer?
    private let lock = NSLock()
    init(queue: DispatchQueue = DispatchQueue(label: "defaults-outbox.retry")) { self.queue = queue }
    func schedule(after seconds: TimeInterval, _ fire: @escaping @Sendable () -> Void) {
        lock.lock(); defer { lock.unlock() }
        source?.cancel()
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + seconds)
        timer.setEventHandler(handler: fire)
        timer.resume()
        source = timer
    }
    func cancel() {
        lock.lock(); defer { lock.unlock() }
        source?.cancel()
        source = nil
    }
}

struct OutboxHTTPResult: Sendable {
    let statusCode: Int
    init(statusCode: Int) { self.statusCode = statusCode }
}

/// POST with an `Idempotency-Key` header.
typealias OutboxPost = @Sendable (_ idempotencyKey: String, _ body: Data) async throws -> OutboxHTTPResult

// MARK: - Outbox

/// Offline outbox kept in UserDefaults under one key:
/// `[taskID: ["label", "key", "body" (a dictionary), "createdAt", "attempts",
///   "status" ("pending" | "stuck"), "reason", "nextAttemptAt"]]`.
/// One send at a time; failed sends retry with capped exponential backoff via a timer.
actor DefaultsOutbox {
    static let defaultsKey = "r3.outbox.v1"
    static let baseDelay: TimeInterval = 1
    static let maxDelay: TimeInterval = 60
    static let retryableClientErrors: Set<Int> = [408, 429]

    struct StoredTask: Sendable {
        let id: String
        let label: String
        let key: String
        let bodyJSON: Data
        let createdAt: Date
        let attempts: Int
        let isStuck: Bool
        let reason: String?
    }

    private let store: any OutboxKeyValueStore
    private let post: OutboxPost
    private let timer: any OutboxRetryTimer
    private let now: @Sendable () -> Date
    private var isSending = false
    private(set) var log: [String] = []

    init(store: any OutboxKeyValueStore, timer: any OutboxRetryTimer,
                now: @escaping @Sendable () -> Date = Date.init, post: @escaping OutboxPost) {
        self.store = store
        self.timer = timer
        self.now = now
        self.post = post
    }

    // MARK: Enqueue

    /// Stores the write (with its idempotency key) before returning.
    @discardableResult
    func enqueue(label: String, body: [String: Any]) throws -> String {
        guard PropertyListSerialization.propertyList(body, isValidFor: .binary) else {
            throw CocoaError(.propertyListWriteInvalid)
        }
        let id = UUID().uuidString
        var outbox = store.dictionary(forKey: Self.defaultsKey) ?? [:]
        outbox[id] = [
            "label": label,
            "key": UUID().uuidString,
            "body": body,
            "createdAt": now(),
            "attempts": 0,
            "status": "pending",
        ] as [String: Any]
        store.set(outbox, forKey: Self.defaultsKey)
        log.append("queued \(label)")
        return id
    }

    func enqueue(label: String, json: Data) throws {
        guard let body = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        try enqueue(label: label, body: body)
    }

    // MARK: Sending

    /// Sends every due task, one at a time. A second call while sending returns at once.
    func flush() async {
        guard !isSending else { return }
        isSending = true
        defer { isSending = false }
        var tried: Set<String> = []
        while !Task.isCancelled, let (id, record) = nextDueTask(excluding: tried) {
            tried.insert(id)
            await send(id: id, record: record)
        }
        armTimer()
    }

    private func nextDueTask(excluding tried: Set<String>) -> (String, [String: Any])? {
        let outbox = store.dictionary(forKey: Self.defaultsKey) ?? [:]
        let due = outbox.compactMap { id, value -> (String, [String: Any], Date)? in
            guard !tried.contains(id), let record = value as? [String: Any],
                  record["status"] as? String == "pending" else { return nil }
            if let next = record["nextAttemptAt"] as? Date, next > now() { return nil }
            return (id, record, record["createdAt"] as? Date ?? .distantPast)
        }
        return due.min { $0.2 < $1.2 }.map { ($0.0, $0.1) }
    }

    private func send(id: String, record: [String: Any]) async {
        guard let key = record["key"] as? String,
              let body = record["body"] as? [String: Any],
              let data = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        else {
            update(id) { $0["status"] = "stuck"; $0["reason"] = "unreadable record" }
            return
        }
        let label = record["label"] as? String ?? "?"
        let attempt = (record["attempts"] as? Int ?? 0) + 1
        update(id) { $0["attempts"] = attempt }
        do {
            let result = try await post(key, data)
            let status = result.statusCode
            log.append("\(label) attempt \(attempt): HTTP \(status)")
            switch status {
            case 200..<300:
                remove(id)
            case 500..<600, 300..<400:
                scheduleRetry(id, attempt: attempt)
            case let code where Self.retryableClientErrors.contains(code):
                scheduleRetry(id, attempt: attempt)
            case 409:
                update(id) { $0["status"] = "stuck"; $0["reason"] = "HTTP 409: conflicts with an earlier write" }
            default:
                update(id) { $0["status"] = "stuck"; $0["reason"] = "HTTP \(status): rejected by the server" }
            }
        } catch {
            log.append("\(label) attempt \(attempt): no answer (\(type(of: error)))")
            scheduleRetry(id, attempt: attempt)
        }
    }

    static func delay(afterAttempt attempt: Int) -> TimeInterval {
        let exponent = Double(min(max(attempt - 1, 0), 16))
        return min(maxDelay, baseDelay * pow(2, exponent))
    }

    private func scheduleRetry(_ id: String, attempt: Int) {
        let due = now().addingTimeInterval(Self.delay(afterAttempt: attempt))
        update(id) { $0["nextAttemptAt"] = due }
    }

    private func armTimer() {
        let outbox = store.dictionary(forKey: Self.defaultsKey) ?? [:]
        let dues = outbox.values.compactMap { value -> Date? in
            guard let record = value as? [String: Any], record["status"] as? String == "pending" else { return nil }
            return record["nextAttemptAt"] as? Date ?? now()
        }
        guard let earliest = dues.min() else { timer.cancel(); return }
        let wait = max(0.001, earliest.timeIntervalSince(now()))
        timer.schedule(after: wait) { [weak self] in
            Task { await self?.flush() }
        }
    }

    private func update(_ id: String, _ change: (inout [String: Any]) -> Void) {
        var outbox = store.dictionary(forKey: Self.defaultsKey) ?? [:]
        guard var record = outbox[id] as? [String: Any] else { return }
        change(&record)
        outbox[id] = record
        store.set(outbox, forKey: Self.defaultsKey)
    }

    private func remove(_ id: String) {
        var outbox = store.dictionary(forKey: Self.defaultsKey) ?? [:]
        outbox[id] = nil
        store.set(outbox, forKey: Self.defaultsKey)
    }

    // MARK: Reading (debug screen)

    static func storedTasks(in store: any OutboxKeyValueStore) -> [StoredTask] {
        let outbox = store.dictionary(forKey: defaultsKey) ?? [:]
        return outbox.compactMap { id, value in
            guard let record = value as? [String: Any], let key = record["key"] as? String,
                  let body = record["body"] as? [String: Any],
                  let data = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
            else { return nil }
            return StoredTask(
                id: id, label: record["label"] as? String ?? "", key: key, bodyJSON: data,
                createdAt: record["createdAt"] as? Date ?? .distantPast,
                attempts: record["attempts"] as? Int ?? 0,
                isStuck: record["status"] as? String == "stuck",
                reason: record["reason"] as? String)
        }.sorted { $0.createdAt < $1.createdAt }
    }
}
