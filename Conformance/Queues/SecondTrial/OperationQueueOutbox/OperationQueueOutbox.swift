import Foundation

// MARK: - OQO shared model (prefixed: all of Conformance/ is one module)

public enum OQOTaskStatus: String, Codable, Sendable {
    case pending
    case failed
}

/// One stored outbox row. Written to the store before the first send.
public struct OQOTask: Codable, Sendable, Equatable {
    public var id: String
    public var operation: String
    public var body: Data
    public var idempotencyKey: String
    public var createdAt: Date
    public var status: OQOTaskStatus
    /// Number of sends started (incremented and persisted before each send).
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var diagnostic: String?
}

public protocol OQOStore: Sendable {
    func loadAll() throws -> [OQOTask]
    func load(id: String) throws -> OQOTask?
    func save(_ task: OQOTask) throws
    func remove(id: String) throws
}

/// In-memory stand-in for the disk: keeps encoded rows, so everything round-trips like a file would.
public final class OQOMemoryStore: OQOStore, @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [String: Data] = [:]
    public init() {}

    public func loadAll() throws -> [OQOTask] {
        lock.lock(); let snapshot = rows; lock.unlock()
        return try snapshot.values.map { try JSONDecoder().decode(OQOTask.self, from: $0) }
    }
    public func load(id: String) throws -> OQOTask? {
        lock.lock(); let row = rows[id]; lock.unlock()
        return try row.map { try JSONDecoder().decode(OQOTask.self, from: $0) }
    }
    public func save(_ task: OQOTask) throws {
        let data = try JSONEncoder().encode(task)
        lock.lock(); rows[task.id] = data; lock.unlock()
    }
    public func remove(id: String) throws {
        lock.lock(); rows[id] = nil; lock.unlock()
    }
}

/// One JSON file per task in a directory.
public struct OQODirectoryStore: OQOStore {
    public let directory: URL
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    private func fileURL(_ id: String) -> URL { directory.appendingPathComponent("\(id).json") }

    public func loadAll() throws -> [OQOTask] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return try names.filter { $0.hasSuffix(".json") }.compactMap { name in
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            return try JSONDecoder().decode(OQOTask.self, from: data)
        }
    }
    public func load(id: String) throws -> OQOTask? {
        let url = fileURL(id)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(OQOTask.self, from: Data(contentsOf: url))
    }
    public func save(_ task: OQOTask) throws {
        try JSONEncoder().encode(task).write(to: fileURL(task.id), options: .atomic)
    }
    public func remove(id: String) throws {
        let url = fileURL(id)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }
}

public struct OQORequest: Sendable, Equatable {
    public var operation: String
    public var idempotencyKey: String
    public var body: Data
    public var timeoutInterval: TimeInterval
}

public struct OQOResponse: Sendable, Equatable {
    public var statusCode: Int
    public init(statusCode: Int) { self.statusCode = statusCode }
}

public struct OQOReceipt: Sendable, Equatable {
    public let taskID: String
    public let idempotencyKey: String
}

enum OQOOutcome: Equatable {
    case completed
    case retryLater(String)
    case stopped(String)
}

func oqoClassify(_ statusCode: Int) -> OQOOutcome {
    switch statusCode {
    case 200..<300: return .completed
    case 408, 429: return .retryLater("HTTP \(statusCode), will retry")
    case 409: return .stopped("HTTP 409 conflict: the server rejected this operation; not resent")
    case 400..<500: return .stopped("HTTP \(statusCode): request rejected; not resent")
    default: return .retryLater("HTTP \(statusCode): outcome unknown, will retry")
    }
}

/// Capped exponential backoff in seconds; `retryIndex` 0 is the first retry.
func oqoBackoffSeconds(retryIndex: Int, base: Double, cap: Double) -> Double {
    let exponent = Double(min(max(retryIndex, 0), 30))
    return min(cap, base * pow(2, exponent))
}

func oqoDuration(seconds: Double) -> Duration {
    .milliseconds(Int64((max(0, seconds) * 1000).rounded()))
}

func oqoNewID() -> String { UUID().uuidString }

/// Completion-handler transport (URLSession style). The handler may be called on any thread.
public typealias OQOTransport = @Sendable (OQORequest, @escaping @Sendable (Result<OQOResponse, any Error>) -> Void) -> Void

/// An asynchronous `Operation`: it is finished when the transport calls back, so no thread is
/// blocked while a request is in flight (a blocked thread per parked request starves GCD).
final class OQOSendOperation: Operation, @unchecked Sendable {
    private let stateLock = NSLock()
    private var executing = false
    private var finished = false
    private let work: @Sendable (_ done: @escaping @Sendable () -> Void) -> Void

    init(work: @escaping @Sendable (_ done: @escaping @Sendable () -> Void) -> Void) {
        self.work = work
    }

    override var isAsynchronous: Bool { true }
    override var isExecuting: Bool { stateLock.lock(); defer { stateLock.unlock() }; return executing }
    override var isFinished: Bool { stateLock.lock(); defer { stateLock.unlock() }; return finished }

    override func start() {
        if isCancelled { markFinished(); return }
        willChangeValue(forKey: "isExecuting")
        stateLock.lock(); executing = true; stateLock.unlock()
        didChangeValue(forKey: "isExecuting")
        work { [self] in self.markFinished() }
    }

    private func markFinished() {
        stateLock.lock()
        let already = finished
        stateLock.unlock()
        guard !already else { return }
        willChangeValue(forKey: "isExecuting")
        willChangeValue(forKey: "isFinished")
        stateLock.lock(); executing = false; finished = true; stateLock.unlock()
        didChangeValue(forKey: "isFinished")
        didChangeValue(forKey: "isExecuting")
    }
}

/// Outbox whose sends run on a Foundation `OperationQueue` (two at a time), one operation per due task.
/// `flush()` enqueues the due tasks and returns after every operation added so far has finished.
public final class OperationQueueOutbox: @unchecked Sendable {
    private let lock = NSLock()
    private let store: any OQOStore
    private let transport: OQOTransport
    private let now: @Sendable () -> Date
    private let baseDelay: Double
    private let maxDelay: Double
    private let requestTimeout: TimeInterval
    private let log: @Sendable (String) -> Void
    private let operations: OperationQueue
    private var inFlight: Set<String> = []

    public init(
        store: any OQOStore,
        transport: @escaping OQOTransport,
        now: @escaping @Sendable () -> Date = { Date() },
        baseDelay: Double = 2,
        maxDelay: Double = 300,
        requestTimeout: TimeInterval = 30,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.store = store
        self.transport = transport
        self.now = now
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.requestTimeout = requestTimeout
        self.log = log
        let queue = OperationQueue()
        queue.name = "OperationQueueOutbox"
        queue.maxConcurrentOperationCount = 2
        self.operations = queue
    }

    @discardableResult
    public func submit(operation: String, body: Data) throws -> OQOReceipt {
        let task = OQOTask(
            id: oqoNewID(), operation: operation, body: body, idempotencyKey: oqoNewID(),
            createdAt: now(), status: .pending, attempts: 0, nextAttemptAt: nil, diagnostic: nil)
        lock.lock(); defer { lock.unlock() }
        try store.save(task)
        log("OperationQueueOutbox: queued \(task.id) (\(operation))")
        return OQOReceipt(taskID: task.id, idempotencyKey: task.idempotencyKey)
    }

    public func tasks() throws -> [OQOTask] {
        lock.lock(); defer { lock.unlock() }
        return try store.loadAll().sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    public func flush() async {
        let due = claimDueTasks()
        for task in due {
            operations.addOperation(OQOSendOperation { [self] done in self.perform(task, done: done) })
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            operations.addBarrierBlock { continuation.resume() }
        }
    }

    /// Marks due tasks in flight and persists the attempt count before anything is sent.
    private func claimDueTasks() -> [OQOTask] {
        lock.lock(); defer { lock.unlock() }
        guard let all = try? store.loadAll() else {
            log("OperationQueueOutbox: store read failed")
            return []
        }
        let current = now()
        var claimed: [OQOTask] = []
        for var task in all.sorted(by: { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) })
        where task.status == .pending && !inFlight.contains(task.id) && (task.nextAttemptAt ?? .distantPast) <= current {
            task.attempts += 1
            guard (try? store.save(task)) != nil else { continue }
            inFlight.insert(task.id)
            claimed.append(task)
        }
        return claimed
    }

    /// Starts the send for one claimed task; `done` finishes its operation after the outcome is stored.
    private func perform(_ task: OQOTask, done: @escaping @Sendable () -> Void) {
        let request = OQORequest(
            operation: task.operation, idempotencyKey: task.idempotencyKey,
            body: task.body, timeoutInterval: requestTimeout)
        transport(request) { [self] result in
            let outcome: OQOOutcome
            switch result {
            case .success(let response): outcome = oqoClassify(response.statusCode)
            case .failure: outcome = .retryLater("transport error or timeout: outcome unknown, will retry")
            }
            self.finish(task, outcome)
            done()
        }
    }

    private func finish(_ sent: OQOTask, _ outcome: OQOOutcome) {
        lock.lock(); defer { lock.unlock() }
        defer { inFlight.remove(sent.id) }
        var task = (try? store.load(id: sent.id)) ?? sent
        switch outcome {
        case .completed:
            try? store.remove(id: task.id)
            log("OperationQueueOutbox: completed \(task.id)")
        case .stopped(let reason):
            task.status = .failed
            task.diagnostic = reason
            task.nextAttemptAt = nil
            try? store.save(task)
            log("OperationQueueOutbox: stopped \(task.id): \(reason)")
        case .retryLater(let reason):
            task.diagnostic = reason
            task.nextAttemptAt = now().addingTimeInterval(
                oqoBackoffSeconds(retryIndex: task.attempts - 1, base: baseDelay, cap: maxDelay))
            try? store.save(task)
            log("OperationQueueOutbox: \(task.id) attempt \(task.attempts): \(reason)")
        }
    }
}
