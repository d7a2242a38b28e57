import Foundation

// MARK: - PO shared model (prefixed: all of Conformance/ is one module)

public enum POTaskStatus: String, Codable, Sendable {
    case pending
    case failed
}

/// One stored outbox row. Written to the store before the first send.
public struct POTask: Codable, Sendable, Equatable {
    public var id: String
    public var operation: String
    public var body: Data
    public var idempotencyKey: String
    public var createdAt: Date
    public var status: POTaskStatus
    /// Number of sends started (incremented and persisted before each send).
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var diagnostic: String?
    public var priority: Int
}

public protocol POStore: Sendable {
    func loadAll() throws -> [POTask]
    func load(id: String) throws -> POTask?
    func save(_ task: POTask) throws
    func remove(id: String) throws
}

/// In-memory stand-in for the disk: keeps encoded rows, so everything round-trips like a file would.
public final class POMemoryStore: POStore, @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [String: Data] = [:]
    public init() {}

    public func loadAll() throws -> [POTask] {
        lock.lock(); let snapshot = rows; lock.unlock()
        return try snapshot.values.map { try JSONDecoder().decode(POTask.self, from: $0) }
    }
    public func load(id: String) throws -> POTask? {
        lock.lock(); let row = rows[id]; lock.unlock()
        return try row.map { try JSONDecoder().decode(POTask.self, from: $0) }
    }
    public func save(_ task: POTask) throws {
        let data = try JSONEncoder().encode(task)
        lock.lock(); rows[task.id] = data; lock.unlock()
    }
    public func remove(id: String) throws {
        lock.lock(); rows[id] = nil; lock.unlock()
    }
}

/// One JSON file per task in a directory.
public struct PODirectoryStore: POStore {
    public let directory: URL
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    private func fileURL(_ id: String) -> URL { directory.appendingPathComponent("\(id).json") }

    public func loadAll() throws -> [POTask] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return try names.filter { $0.hasSuffix(".json") }.compactMap { name in
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            return try JSONDecoder().decode(POTask.self, from: data)
        }
    }
    public func load(id: String) throws -> POTask? {
        let url = fileURL(id)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(POTask.self, from: Data(contentsOf: url))
    }
    public func save(_ task: POTask) throws {
        try JSONEncoder().encode(task).write(to: fileURL(task.id), options: .atomic)
    }
    public func remove(id: String) throws {
        let url = fileURL(id)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }
}

public struct PORequest: Sendable, Equatable {
    public var operation: String
    public var idempotencyKey: String
    public var body: Data
    public var timeoutInterval: TimeInterval
}

public struct POResponse: Sendable, Equatable {
    public var statusCode: Int
    public init(statusCode: Int) { self.statusCode = statusCode }
}

public struct POReceipt: Sendable, Equatable {
    public let taskID: String
    public let idempotencyKey: String
}

enum POOutcome: Equatable {
    case completed
    case retryLater(String)
    case stopped(String)
}

func poClassify(_ statusCode: Int) -> POOutcome {
    switch statusCode {
    case 200..<300: return .completed
    case 408, 429: return .retryLater("HTTP \(statusCode), will retry")
    case 409: return .stopped("HTTP 409 conflict: the server rejected this operation; not resent")
    case 400..<500: return .stopped("HTTP \(statusCode): request rejected; not resent")
    default: return .retryLater("HTTP \(statusCode): outcome unknown, will retry")
    }
}

/// Capped exponential backoff in seconds; `retryIndex` 0 is the first retry.
func poBackoffSeconds(retryIndex: Int, base: Double, cap: Double) -> Double {
    let exponent = Double(min(max(retryIndex, 0), 30))
    return min(cap, base * pow(2, exponent))
}

func poDuration(seconds: Double) -> Duration {
    .milliseconds(Int64((max(0, seconds) * 1000).rounded()))
}

func poNewID() -> String { UUID().uuidString }

public typealias POTransport = @Sendable (PORequest) async throws -> POResponse

public enum POPriority {
    public static let low = 0
    public static let normal = 1
    public static let high = 2
    public static let critical = 3

    /// Reads `"priority"` from a JSON object body: a number, or "low"/"normal"/"high"/"critical"
    /// ("urgent" = critical). Anything else is normal.
    public static func of(body: Data) -> Int {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let raw = object["priority"] else { return normal }
        if raw is Bool { return normal }
        if let number = raw as? Int { return number }
        if let number = raw as? Double { return Int(number) }
        if let text = raw as? String {
            switch text.lowercased() {
            case "low": return low
            case "normal", "default", "medium": return normal
            case "high": return high
            case "critical", "urgent": return critical
            default: return Int(text) ?? normal
            }
        }
        return normal
    }
}

/// Outbox that sends due tasks highest priority first, ties by createdAt (then id).
/// The next task is picked after every send, so a higher-priority submit jumps ahead of the rest.
public actor PriorityOutbox {
    private let store: any POStore
    private let transport: POTransport
    private let now: @Sendable () -> Date
    private let baseDelay: Double
    private let maxDelay: Double
    private let requestTimeout: TimeInterval
    private let log: @Sendable (String) -> Void
    private var currentPass: Task<Void, Never>?
    private var inFlight: Set<String> = []

    public init(
        store: any POStore,
        transport: @escaping POTransport,
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
    }

    @discardableResult
    public func submit(operation: String, body: Data) throws -> POReceipt {
        let task = POTask(
            id: poNewID(), operation: operation, body: body, idempotencyKey: poNewID(),
            createdAt: now(), status: .pending, attempts: 0, nextAttemptAt: nil, diagnostic: nil,
            priority: POPriority.of(body: body))
        try store.save(task)
        log("PriorityOutbox: queued \(task.id) (\(operation), priority \(task.priority))")
        return POReceipt(taskID: task.id, idempotencyKey: task.idempotencyKey)
    }

    public func tasks() throws -> [POTask] {
        try store.loadAll().sorted(by: Self.sendOrder)
    }

    public func flush() async {
        while let running = currentPass { await running.value }
        let pass = Task { await self.runPass() }
        currentPass = pass
        await pass.value
    }

    static func sendOrder(_ a: POTask, _ b: POTask) -> Bool {
        if a.priority != b.priority { return a.priority > b.priority }
        return (a.createdAt, a.id) < (b.createdAt, b.id)
    }

    private func runPass() async {
        defer { currentPass = nil }
        var handled: Set<String> = []
        while true {
            guard let all = try? store.loadAll() else {
                log("PriorityOutbox: store read failed")
                return
            }
            let current = now()
            let next = all
                .filter {
                    $0.status == .pending && !handled.contains($0.id) && !inFlight.contains($0.id)
                        && ($0.nextAttemptAt ?? .distantPast) <= current
                }
                .min(by: Self.sendOrder)
            guard var task = next else { return }
            handled.insert(task.id)
            task.attempts += 1
            guard (try? store.save(task)) != nil else { continue }
            inFlight.insert(task.id)
            let request = PORequest(
                operation: task.operation, idempotencyKey: task.idempotencyKey,
                body: task.body, timeoutInterval: requestTimeout)
            let outcome: POOutcome
            do {
                outcome = poClassify(try await transport(request).statusCode)
            } catch {
                outcome = .retryLater("transport error or timeout: outcome unknown, will retry")
            }
            inFlight.remove(task.id)
            switch outcome {
            case .completed:
                try? store.remove(id: task.id)
                log("PriorityOutbox: completed \(task.id)")
            case .stopped(let reason):
                task.status = .failed
                task.diagnostic = reason
                task.nextAttemptAt = nil
                try? store.save(task)
                log("PriorityOutbox: stopped \(task.id): \(reason)")
            case .retryLater(let reason):
                task.diagnostic = reason
                task.nextAttemptAt = now().addingTimeInterval(
                    poBackoffSeconds(retryIndex: task.attempts - 1, base: baseDelay, cap: maxDelay))
                try? store.save(task)
                log("PriorityOutbox: \(task.id) attempt \(task.attempts): \(reason)")
            }
        }
    }
}
