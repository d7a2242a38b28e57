import Foundation

// MARK: - Model

public struct FKTask: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable { case queued, failed }
    public let id: UUID
    public let operation: String
    public let body: Data
    public var idempotencyKey: String
    public var attempt: Int
    public var retryAfter: Date
    public var state: State
    /// Why the task stopped, for the person who must resolve it (added when bundled: Q4).
    public var failureReason: String? = nil
}

// MARK: - Storage

public protocol FKStorage: Sendable {
    func load() throws -> [FKTask]
    func save(_ tasks: [FKTask]) throws
}

public final class FKMemoryStorage: FKStorage, @unchecked Sendable {
    private let lock = NSLock()
    private var tasks: [FKTask] = []
    public init() {}
    public func load() throws -> [FKTask] { lock.withLock { tasks } }
    public func save(_ tasks: [FKTask]) throws { lock.withLock { self.tasks = tasks } }
}

public struct FKFileStorage: FKStorage {
    public let url: URL
    public init(url: URL) { self.url = url }
    public func load() throws -> [FKTask] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try JSONDecoder().decode([FKTask].self, from: Data(contentsOf: url))
    }
    public func save(_ tasks: [FKTask]) throws {
        try JSONEncoder().encode(tasks).write(to: url, options: .atomic)
    }
}

// MARK: - Transport

public struct FKRequest: Sendable, Equatable {
    public let taskID: UUID
    public let operation: String
    public let body: Data
    public let headers: [String: String]
}

public enum FKTransportError: Error, Sendable { case timedOut, offline, other }

public protocol FKTransport: Sendable {
    func send(_ request: FKRequest) async throws -> Int
}

// MARK: - Outbox

public actor FreshKeyRetryOutbox {
    public static let backoffBase: TimeInterval = 2
    public static let backoffCap: TimeInterval = 300

    private let storage: FKStorage
    private let transport: FKTransport
    private let now: @Sendable () -> Date
    private let makeKey: @Sendable () -> String
    private let log: @Sendable (String) -> Void
    private var tasks: [FKTask]
    private var sending: Set<UUID> = []

    public init(storage: FKStorage, transport: FKTransport,
                now: @escaping @Sendable () -> Date = { Date() },
                makeKey: @escaping @Sendable () -> String = { UUID().uuidString },
                log: @escaping @Sendable (String) -> Void = { print($0) }) throws {
        self.storage = storage
        self.transport = transport
        self.now = now
        self.makeKey = makeKey
        self.log = log
        self.tasks = try storage.load()
    }

    @discardableResult
    public func submit(operation: String, body: Data) throws -> UUID {
        let task = FKTask(id: UUID(), operation: operation, body: body, idempotencyKey: makeKey(),
                          attempt: 0, retryAfter: now(), state: .queued)
        var updated = tasks
        updated.append(task)
        try storage.save(updated)
        tasks = updated
        log("fk-outbox: queued \(task.id) \(operation)")
        return task.id
    }

    public var queued: [FKTask] { tasks.filter { $0.state == .queued } }
    public var failed: [FKTask] { tasks.filter { $0.state == .failed } }

    public func flush() async {
        let current = now()
        let due = tasks.filter { $0.state == .queued && $0.retryAfter <= current && !sending.contains($0.id) }
        for task in due { sending.insert(task.id) }
        for task in due {
            let request = FKRequest(taskID: task.id, operation: task.operation, body: task.body,
                                    headers: ["Idempotency-Key": task.idempotencyKey,
                                              "Content-Type": "application/json"])
            log("fk-outbox: sending \(task.id) attempt \(task.attempt + 1)")
            let result: Result<Int, Error>
            do { result = .success(try await transport.send(request)) } catch { result = .failure(error) }
            apply(result, to: task.id)
        }
    }

    private enum Outcome { case delivered, rejected, retry(newAttempt: Bool) }

    private func classify(_ result: Result<Int, Error>) -> Outcome {
        switch result {
        case .success(let code) where (200..<300).contains(code): return .delivered
        case .success(408), .success(429): return .retry(newAttempt: false)
        case .success(let code) where (400..<500).contains(code): return .rejected
        case .success(let code) where code >= 500: return .retry(newAttempt: true)
        case .success: return .retry(newAttempt: false)
        case .failure: return .retry(newAttempt: true)
        }
    }

    private func apply(_ result: Result<Int, Error>, to id: UUID) {
        sending.remove(id)
        guard let index = tasks.firstIndex(where: { $0.id == id }) else { return }
        switch classify(result) {
        case .delivered:
            tasks.remove(at: index)
            log("fk-outbox: delivered \(id)")
        case .rejected:
            tasks[index].state = .failed
            if case .success(let code) = result { tasks[index].failureReason = "HTTP \(code): rejected; not resent" }
            log("fk-outbox: rejected \(id)")
        case .retry(let newAttempt):
            tasks[index].attempt += 1
            if newAttempt {
                // The previous attempt failed, so the next one is a new attempt with its own key.
                tasks[index].idempotencyKey = makeKey()
            }
            let exponent = Double(min(tasks[index].attempt - 1, 30))
            let delay = min(Self.backoffCap, Self.backoffBase * pow(2, exponent))
            tasks[index].retryAfter = now().addingTimeInterval(delay)
            log("fk-outbox: retrying \(id) in \(delay)s")
        }
        do { try storage.save(tasks) } catch { log("fk-outbox: could not persist state: \(type(of: error))") }
    }
}
