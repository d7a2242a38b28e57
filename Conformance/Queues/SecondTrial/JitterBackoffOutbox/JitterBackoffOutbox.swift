import Foundation

// MARK: - JBO shared model (prefixed: all of Conformance/ is one module)

public enum JBOTaskStatus: String, Codable, Sendable {
    case pending
    case failed
}

/// One stored outbox row. Written to the store before the first send.
public struct JBOTask: Codable, Sendable, Equatable {
    public var id: String
    public var operation: String
    public var body: Data
    public var idempotencyKey: String
    public var createdAt: Date
    public var status: JBOTaskStatus
    /// Number of sends started (incremented and persisted before each send).
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var diagnostic: String?
}

public protocol JBOStore: Sendable {
    func loadAll() throws -> [JBOTask]
    func load(id: String) throws -> JBOTask?
    func save(_ task: JBOTask) throws
    func remove(id: String) throws
}

/// In-memory stand-in for the disk: keeps encoded rows, so everything round-trips like a file would.
public final class JBOMemoryStore: JBOStore, @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [String: Data] = [:]
    public init() {}

    public func loadAll() throws -> [JBOTask] {
        lock.lock(); let snapshot = rows; lock.unlock()
        return try snapshot.values.map { try JSONDecoder().decode(JBOTask.self, from: $0) }
    }
    public func load(id: String) throws -> JBOTask? {
        lock.lock(); let row = rows[id]; lock.unlock()
        return try row.map { try JSONDecoder().decode(JBOTask.self, from: $0) }
    }
    public func save(_ task: JBOTask) throws {
        let data = try JSONEncoder().encode(task)
        lock.lock(); rows[task.id] = data; lock.unlock()
    }
    public func remove(id: String) throws {
        lock.lock(); rows[id] = nil; lock.unlock()
    }
}

/// One JSON file per task in a directory.
public struct JBODirectoryStore: JBOStore {
    public let directory: URL
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    private func fileURL(_ id: String) -> URL { directory.appendingPathComponent("\(id).json") }

    public func loadAll() throws -> [JBOTask] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return try names.filter { $0.hasSuffix(".json") }.compactMap { name in
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            return try JSONDecoder().decode(JBOTask.self, from: data)
        }
    }
    public func load(id: String) throws -> JBOTask? {
        let url = fileURL(id)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(JBOTask.self, from: Data(contentsOf: url))
    }
    public func save(_ task: JBOTask) throws {
        try JSONEncoder().encode(task).write(to: fileURL(task.id), options: .atomic)
    }
    public func remove(id: String) throws {
        let url = fileURL(id)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }
}

public struct JBORequest: Sendable, Equatable {
    public var operation: String
    public var idempotencyKey: String
    public var body: Data
    public var timeoutInterval: TimeInterval
}

public struct JBOResponse: Sendable, Equatable {
    public var statusCode: Int
    public init(statusCode: Int) { self.statusCode = statusCode }
}

public struct JBOReceipt: Sendable, Equatable {
    public let taskID: String
    public let idempotencyKey: String
}

enum JBOOutcome: Equatable {
    case completed
    case retryLater(String)
    case stopped(String)
}

func jboClassify(_ statusCode: Int) -> JBOOutcome {
    switch statusCode {
    case 200..<300: return .completed
    case 408, 429: return .retryLater("HTTP \(statusCode), will retry")
    case 409: return .stopped("HTTP 409 conflict: the server rejected this operation; not resent")
    case 400..<500: return .stopped("HTTP \(statusCode): request rejected; not resent")
    default: return .retryLater("HTTP \(statusCode): outcome unknown, will retry")
    }
}

/// Capped exponential backoff in seconds; `retryIndex` 0 is the first retry.
func jboBackoffSeconds(retryIndex: Int, base: Double, cap: Double) -> Double {
    let exponent = Double(min(max(retryIndex, 0), 30))
    return min(cap, base * pow(2, exponent))
}

func jboDuration(seconds: Double) -> Duration {
    .milliseconds(Int64((max(0, seconds) * 1000).rounded()))
}

func jboNewID() -> String { UUID().uuidString }

public typealias JBOTransport = @Sendable (JBORequest) async throws -> JBOResponse

/// Outbox with full-jitter backoff. `flush()` sends due pending tasks in createdAt order and,
/// on an unknown outcome, waits on the injected clock before retrying the same task
/// (same key, same bytes), up to `maxAttemptsPerFlush` sends per task per flush. The retry's
/// due time is stored as well, so a later flush skips the task until it is due.
public actor JitterBackoffOutbox {
    private let store: any JBOStore
    private let transport: JBOTransport
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let baseDelay: Double
    private let maxDelay: Double
    private let maxAttemptsPerFlush: Int
    private let requestTimeout: TimeInterval
    private let log: @Sendable (String) -> Void
    private var currentPass: Task<Void, Never>?
    private var inFlight: Set<String> = []

    public init(
        store: any JBOStore,
        transport: @escaping JBOTransport,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        baseDelay: Double = 1,
        maxDelay: Double = 60,
        maxAttemptsPerFlush: Int = 4,
        requestTimeout: TimeInterval = 30,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.store = store
        self.transport = transport
        self.clock = clock
        self.now = now
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxAttemptsPerFlush = max(1, maxAttemptsPerFlush)
        self.requestTimeout = requestTimeout
        self.log = log
    }

    /// Persists the task (new idempotency key) and returns; nothing is sent until `flush()`.
    @discardableResult
    public func submit(operation: String, body: Data) throws -> JBOReceipt {
        let task = JBOTask(
            id: jboNewID(), operation: operation, body: body, idempotencyKey: jboNewID(),
            createdAt: now(), status: .pending, attempts: 0, nextAttemptAt: nil, diagnostic: nil)
        try store.save(task)
        log("JitterBackoffOutbox: queued \(task.id) (\(operation))")
        return JBOReceipt(taskID: task.id, idempotencyKey: task.idempotencyKey)
    }

    public func tasks() throws -> [JBOTask] {
        try store.loadAll().sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// Runs one delivery pass; concurrent callers wait for the running pass, then run their own.
    public func flush() async {
        while let running = currentPass { await running.value }
        let pass = Task { await self.runPass() }
        currentPass = pass
        await pass.value
    }

    private func runPass() async {
        defer { currentPass = nil }
        var handled: Set<String> = []
        while true {
            let all: [JBOTask]
            do { all = try store.loadAll() } catch {
                log("JitterBackoffOutbox: store read failed")
                return
            }
            let next = all
                .filter {
                    $0.status == .pending && !handled.contains($0.id) && !inFlight.contains($0.id)
                        && ($0.nextAttemptAt ?? .distantPast) <= now()
                }
                .min { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            guard let task = next else { return }
            handled.insert(task.id)
            await deliver(taskID: task.id)
        }
    }

    private func deliver(taskID: String) async {
        var sendsThisPass = 0
        while true {
            guard var task = try? store.load(id: taskID), task.status == .pending,
                  !inFlight.contains(taskID) else { return }
            task.attempts += 1
            do { try store.save(task) } catch {
                log("JitterBackoffOutbox: could not persist attempt for \(task.id); not sending")
                return
            }
            inFlight.insert(taskID)
            let request = JBORequest(
                operation: task.operation, idempotencyKey: task.idempotencyKey,
                body: task.body, timeoutInterval: requestTimeout)
            let outcome: JBOOutcome
            do {
                let response = try await transport(request)
                outcome = jboClassify(response.statusCode)
            } catch {
                outcome = .retryLater("transport error or timeout: outcome unknown, will retry")
            }
            inFlight.remove(taskID)
            sendsThisPass += 1

            switch outcome {
            case .completed:
                try? store.remove(id: taskID)
                log("JitterBackoffOutbox: completed \(taskID)")
                return
            case .stopped(let reason):
                task.status = .failed
                task.diagnostic = reason
                try? store.save(task)
                log("JitterBackoffOutbox: stopped \(taskID): \(reason)")
                return
            case .retryLater(let reason):
                // The due time is stored too, so a later flush does not resend before it.
                let delay = jitteredDelay(retryIndex: task.attempts - 1)
                task.diagnostic = reason
                task.nextAttemptAt = now().addingTimeInterval(
                    Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
                try? store.save(task)
                log("JitterBackoffOutbox: \(taskID) attempt \(task.attempts): \(reason)")
                guard sendsThisPass < maxAttemptsPerFlush else { return }
                do { try await clock.sleep(for: delay) } catch { return }
            }
        }
    }

    /// Full jitter: random in [0.5, 1] x min(cap, base * 2^n).
    private func jitteredDelay(retryIndex: Int) -> Duration {
        var rng = SystemRandomNumberGenerator()
        let capped = jboBackoffSeconds(retryIndex: retryIndex, base: baseDelay, cap: maxDelay)
        let factor = Double.random(in: 0.5...1.0, using: &rng)
        return jboDuration(seconds: capped * factor)
    }
}
