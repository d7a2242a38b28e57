import Foundation

// MARK: - WLO shared model (prefixed: all of Conformance/ is one module)

public enum WLOTaskStatus: String, Codable, Sendable {
    case pending
    case failed
}

/// One stored outbox row. Written to the store before the first send.
public struct WLOTask: Codable, Sendable, Equatable {
    public var id: String
    public var operation: String
    public var body: Data
    public var idempotencyKey: String
    public var createdAt: Date
    public var status: WLOTaskStatus
    /// Number of sends started (incremented and persisted before each send).
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var diagnostic: String?
}

public protocol WLOStore: Sendable {
    func loadAll() throws -> [WLOTask]
    func load(id: String) throws -> WLOTask?
    func save(_ task: WLOTask) throws
    func remove(id: String) throws
}

/// In-memory stand-in for the disk: keeps encoded rows, so everything round-trips like a file would.
public final class WLOMemoryStore: WLOStore, @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [String: Data] = [:]
    public init() {}

    public func loadAll() throws -> [WLOTask] {
        lock.lock(); let snapshot = rows; lock.unlock()
        return try snapshot.values.map { try JSONDecoder().decode(WLOTask.self, from: $0) }
    }
    public func load(id: String) throws -> WLOTask? {
        lock.lock(); let row = rows[id]; lock.unlock()
        return try row.map { try JSONDecoder().decode(WLOTask.self, from: $0) }
    }
    public func save(_ task: WLOTask) throws {
        let data = try JSONEncoder().encode(task)
        lock.lock(); rows[task.id] = data; lock.unlock()
    }
    public func remove(id: String) throws {
        lock.lock(); rows[id] = nil; lock.unlock()
    }
}

/// One JSON file per task in a directory.
public struct WLODirectoryStore: WLOStore {
    public let directory: URL
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    private func fileURL(_ id: String) -> URL { directory.appendingPathComponent("\(id).json") }

    public func loadAll() throws -> [WLOTask] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return try names.filter { $0.hasSuffix(".json") }.compactMap { name in
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            return try JSONDecoder().decode(WLOTask.self, from: data)
        }
    }
    public func load(id: String) throws -> WLOTask? {
        let url = fileURL(id)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(WLOTask.self, from: Data(contentsOf: url))
    }
    public func save(_ task: WLOTask) throws {
        try JSONEncoder().encode(task).write(to: fileURL(task.id), options: .atomic)
    }
    public func remove(id: String) throws {
        let url = fileURL(id)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }
}

public struct WLORequest: Sendable, Equatable {
    public var operation: String
    public var idempotencyKey: String
    public var body: Data
    public var timeoutInterval: TimeInterval
}

public struct WLOResponse: Sendable, Equatable {
    public var statusCode: Int
    public init(statusCode: Int) { self.statusCode = statusCode }
}

public struct WLOReceipt: Sendable, Equatable {
    public let taskID: String
    public let idempotencyKey: String
}

enum WLOOutcome: Equatable {
    case completed
    case retryLater(String)
    case stopped(String)
}

func wloClassify(_ statusCode: Int) -> WLOOutcome {
    switch statusCode {
    case 200..<300: return .completed
    case 408, 429: return .retryLater("HTTP \(statusCode), will retry")
    case 409: return .stopped("HTTP 409 conflict: the server rejected this operation; not resent")
    case 400..<500: return .stopped("HTTP \(statusCode): request rejected; not resent")
    default: return .retryLater("HTTP \(statusCode): outcome unknown, will retry")
    }
}

/// Capped exponential backoff in seconds; `retryIndex` 0 is the first retry.
func wloBackoffSeconds(retryIndex: Int, base: Double, cap: Double) -> Double {
    let exponent = Double(min(max(retryIndex, 0), 30))
    return min(cap, base * pow(2, exponent))
}

func wloDuration(seconds: Double) -> Duration {
    .milliseconds(Int64((max(0, seconds) * 1000).rounded()))
}

func wloNewID() -> String { UUID().uuidString }

public typealias WLOTransport = @Sendable (WLORequest) async throws -> WLOResponse

/// Actor outbox with one long-running worker task that drains an `AsyncStream` of wake-ups.
/// `submit` persists and wakes the worker; retries are woken by a timer on the injected clock.
/// `flush()` wakes the worker and returns once a full pass that started after the call is over,
/// i.e. when the queue is idle (nothing in flight, nothing due).
public actor WorkerLoopOutbox {
    private let store: any WLOStore
    private let transport: WLOTransport
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let baseDelay: Double
    private let maxDelay: Double
    private let requestTimeout: TimeInterval
    private let log: @Sendable (String) -> Void
    private let wakeUps: AsyncStream<Void>
    private let wake: AsyncStream<Void>.Continuation
    private var worker: Task<Void, Never>?
    private var retryTimer: Task<Void, Never>?
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    public init(
        store: any WLOStore,
        transport: @escaping WLOTransport,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        baseDelay: Double = 2,
        maxDelay: Double = 300,
        requestTimeout: TimeInterval = 30,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.store = store
        self.transport = transport
        self.clock = clock
        self.now = now
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.requestTimeout = requestTimeout
        self.log = log
        (wakeUps, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .unbounded)
    }

    deinit {
        wake.finish()
        worker?.cancel()
        retryTimer?.cancel()
    }

    /// Starts the worker (idempotent). Called by `submit` and `flush`; an app calls it at launch.
    public func start() {
        guard worker == nil else { return }
        let stream = wakeUps
        worker = Task { [weak self] in
            for await _ in stream {
                guard let self else { return }
                await self.runPass()
            }
        }
        wake.yield()
    }

    @discardableResult
    public func submit(operation: String, body: Data) throws -> WLOReceipt {
        let task = WLOTask(
            id: wloNewID(), operation: operation, body: body, idempotencyKey: wloNewID(),
            createdAt: now(), status: .pending, attempts: 0, nextAttemptAt: nil, diagnostic: nil)
        try store.save(task)
        log("WorkerLoopOutbox: queued \(task.id) (\(operation))")
        start()
        wake.yield()
        return WLOReceipt(taskID: task.id, idempotencyKey: task.idempotencyKey)
    }

    public func tasks() throws -> [WLOTask] {
        try store.loadAll().sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    public func flush() async {
        start()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            idleWaiters.append(continuation)
            wake.yield()
        }
    }

    // MARK: worker

    private func runPass() async {
        let waiting = idleWaiters
        idleWaiters = []
        await drainDueTasks()
        scheduleRetryTimer()
        for waiter in waiting { waiter.resume() }
    }

    private func drainDueTasks() async {
        var handled: Set<String> = []
        while !Task.isCancelled {
            guard let all = try? store.loadAll() else {
                log("WorkerLoopOutbox: store read failed")
                return
            }
            let current = now()
            let next = all
                .filter { $0.status == .pending && !handled.contains($0.id) && ($0.nextAttemptAt ?? .distantPast) <= current }
                .min { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            guard var task = next else { return }
            handled.insert(task.id)
            task.attempts += 1
            guard (try? store.save(task)) != nil else { continue }
            let request = WLORequest(
                operation: task.operation, idempotencyKey: task.idempotencyKey,
                body: task.body, timeoutInterval: requestTimeout)
            let outcome: WLOOutcome
            do {
                outcome = wloClassify(try await transport(request).statusCode)
            } catch {
                outcome = .retryLater("transport error or timeout: outcome unknown, will retry")
            }
            switch outcome {
            case .completed:
                try? store.remove(id: task.id)
                log("WorkerLoopOutbox: completed \(task.id)")
            case .stopped(let reason):
                task.status = .failed
                task.diagnostic = reason
                task.nextAttemptAt = nil
                try? store.save(task)
                log("WorkerLoopOutbox: stopped \(task.id): \(reason)")
            case .retryLater(let reason):
                task.diagnostic = reason
                task.nextAttemptAt = now().addingTimeInterval(
                    wloBackoffSeconds(retryIndex: task.attempts - 1, base: baseDelay, cap: maxDelay))
                try? store.save(task)
                log("WorkerLoopOutbox: \(task.id) attempt \(task.attempts): \(reason)")
            }
        }
    }

    private func scheduleRetryTimer() {
        retryTimer?.cancel()
        retryTimer = nil
        guard let all = try? store.loadAll(),
              let earliest = all.filter({ $0.status == .pending }).compactMap(\.nextAttemptAt).min() else { return }
        let delay = max(0.001, earliest.timeIntervalSince(now()))
        let clock = self.clock
        let wake = self.wake
        retryTimer = Task {
            do { try await clock.sleep(for: wloDuration(seconds: delay)) } catch { return }
            wake.yield()
        }
    }
}
