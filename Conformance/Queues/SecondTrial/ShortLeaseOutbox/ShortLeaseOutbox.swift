import Foundation

// MARK: - SLO shared model (prefixed: all of Conformance/ is one module)

public enum SLOTaskStatus: String, Codable, Sendable {
    case pending
    case failed
}

/// One stored outbox row. Written to the store before the first send.
public struct SLOTask: Codable, Sendable, Equatable {
    public var id: String
    public var operation: String
    public var body: Data
    public var idempotencyKey: String
    public var createdAt: Date
    public var status: SLOTaskStatus
    /// Number of sends started (incremented and persisted before each send).
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var diagnostic: String?
    public var leaseUntil: Date?
}

public protocol SLOStore: Sendable {
    func loadAll() throws -> [SLOTask]
    func load(id: String) throws -> SLOTask?
    func save(_ task: SLOTask) throws
    func remove(id: String) throws
}

/// In-memory stand-in for the disk: keeps encoded rows, so everything round-trips like a file would.
public final class SLOMemoryStore: SLOStore, @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [String: Data] = [:]
    public init() {}

    public func loadAll() throws -> [SLOTask] {
        lock.lock(); let snapshot = rows; lock.unlock()
        return try snapshot.values.map { try JSONDecoder().decode(SLOTask.self, from: $0) }
    }
    public func load(id: String) throws -> SLOTask? {
        lock.lock(); let row = rows[id]; lock.unlock()
        return try row.map { try JSONDecoder().decode(SLOTask.self, from: $0) }
    }
    public func save(_ task: SLOTask) throws {
        let data = try JSONEncoder().encode(task)
        lock.lock(); rows[task.id] = data; lock.unlock()
    }
    public func remove(id: String) throws {
        lock.lock(); rows[id] = nil; lock.unlock()
    }
}

/// One JSON file per task in a directory.
public struct SLODirectoryStore: SLOStore {
    public let directory: URL
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    private func fileURL(_ id: String) -> URL { directory.appendingPathComponent("\(id).json") }

    public func loadAll() throws -> [SLOTask] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return try names.filter { $0.hasSuffix(".json") }.compactMap { name in
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            return try JSONDecoder().decode(SLOTask.self, from: data)
        }
    }
    public func load(id: String) throws -> SLOTask? {
        let url = fileURL(id)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(SLOTask.self, from: Data(contentsOf: url))
    }
    public func save(_ task: SLOTask) throws {
        try JSONEncoder().encode(task).write(to: fileURL(task.id), options: .atomic)
    }
    public func remove(id: String) throws {
        let url = fileURL(id)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }
}

public struct SLORequest: Sendable, Equatable {
    public var operation: String
    public var idempotencyKey: String
    public var body: Data
    public var timeoutInterval: TimeInterval
}

public struct SLOResponse: Sendable, Equatable {
    public var statusCode: Int
    public init(statusCode: Int) { self.statusCode = statusCode }
}

public struct SLOReceipt: Sendable, Equatable {
    public let taskID: String
    public let idempotencyKey: String
}

enum SLOOutcome: Equatable {
    case completed
    case retryLater(String)
    case stopped(String)
}

func sloClassify(_ statusCode: Int) -> SLOOutcome {
    switch statusCode {
    case 200..<300: return .completed
    case 408, 429: return .retryLater("HTTP \(statusCode), will retry")
    case 409: return .stopped("HTTP 409 conflict: the server rejected this operation; not resent")
    case 400..<500: return .stopped("HTTP \(statusCode): request rejected; not resent")
    default: return .retryLater("HTTP \(statusCode): outcome unknown, will retry")
    }
}

/// Capped exponential backoff in seconds; `retryIndex` 0 is the first retry.
func sloBackoffSeconds(retryIndex: Int, base: Double, cap: Double) -> Double {
    let exponent = Double(min(max(retryIndex, 0), 30))
    return min(cap, base * pow(2, exponent))
}

func sloDuration(seconds: Double) -> Duration {
    .milliseconds(Int64((max(0, seconds) * 1000).rounded()))
}

func sloNewID() -> String { UUID().uuidString }

public typealias SLOTransport = @Sendable (SLORequest) async throws -> SLOResponse

/// File-backed outbox where each row carries a send lease (`leaseUntil`) in storage, so that
/// overlapping flush passes (or a relaunch) do not pick up a row that is being sent.
public actor ShortLeaseOutbox {
    public static let requestTimeout: TimeInterval = 30
    let leaseDuration: TimeInterval = 5 // BUG: the lease (5 s) is shorter than a request may run (timeoutInterval 30 s); a later pass finds the lease expired and resends the task while the first request is still in flight
    private let store: SLODirectoryStore
    private let transport: SLOTransport
    private let now: @Sendable () -> Date
    private let baseDelay: Double
    private let maxDelay: Double
    private let log: @Sendable (String) -> Void

    public init(
        directory: URL,
        transport: @escaping SLOTransport,
        now: @escaping @Sendable () -> Date = { Date() },
        baseDelay: Double = 2,
        maxDelay: Double = 300,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) throws {
        self.store = try SLODirectoryStore(directory: directory)
        self.transport = transport
        self.now = now
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.log = log
    }

    @discardableResult
    public func submit(operation: String, body: Data) throws -> SLOReceipt {
        let task = SLOTask(
            id: sloNewID(), operation: operation, body: body, idempotencyKey: sloNewID(),
            createdAt: now(), status: .pending, attempts: 0, nextAttemptAt: nil, diagnostic: nil,
            leaseUntil: nil)
        try store.save(task)
        log("ShortLeaseOutbox: queued \(task.id) (\(operation))")
        return SLOReceipt(taskID: task.id, idempotencyKey: task.idempotencyKey)
    }

    public func tasks() throws -> [SLOTask] {
        try store.loadAll().sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// One pass over due rows whose lease is free or expired.
    public func flush() async {
        guard let snapshot = try? store.loadAll() else {
            log("ShortLeaseOutbox: store read failed")
            return
        }
        for candidate in snapshot.sorted(by: { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }) {
            guard var task = try? store.load(id: candidate.id), task.status == .pending else { continue }
            let current = now()
            if let due = task.nextAttemptAt, due > current { continue }
            if let lease = task.leaseUntil, lease > current { continue }
            task.leaseUntil = current.addingTimeInterval(leaseDuration)
            task.attempts += 1
            guard (try? store.save(task)) != nil else { continue }

            let request = SLORequest(
                operation: task.operation, idempotencyKey: task.idempotencyKey,
                body: task.body, timeoutInterval: Self.requestTimeout)
            let outcome: SLOOutcome
            do {
                outcome = sloClassify(try await transport(request).statusCode)
            } catch {
                outcome = .retryLater("transport error or timeout: outcome unknown, will retry")
            }
            guard var row = try? store.load(id: task.id) else { continue }
            row.leaseUntil = nil
            switch outcome {
            case .completed:
                try? store.remove(id: row.id)
                log("ShortLeaseOutbox: completed \(row.id)")
            case .stopped(let reason):
                row.status = .failed
                row.diagnostic = reason
                row.nextAttemptAt = nil
                try? store.save(row)
                log("ShortLeaseOutbox: stopped \(row.id): \(reason)")
            case .retryLater(let reason):
                row.diagnostic = reason
                row.nextAttemptAt = now().addingTimeInterval(
                    sloBackoffSeconds(retryIndex: row.attempts - 1, base: baseDelay, cap: maxDelay))
                try? store.save(row)
                log("ShortLeaseOutbox: \(row.id) attempt \(row.attempts): \(reason)")
            }
        }
    }
}
