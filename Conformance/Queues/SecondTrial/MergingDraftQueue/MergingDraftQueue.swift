import Foundation

// MARK: - MDQ shared model (prefixed: all of Conformance/ is one module)

public enum MDQTaskStatus: String, Codable, Sendable {
    case pending
    case failed
}

/// One stored outbox row. Written to the store before the first send.
public struct MDQTask: Codable, Sendable, Equatable {
    public var id: String
    public var operation: String
    public var body: Data
    public var idempotencyKey: String
    public var createdAt: Date
    public var status: MDQTaskStatus
    /// Number of sends started (incremented and persisted before each send).
    public var attempts: Int
    public var nextAttemptAt: Date?
    public var diagnostic: String?
    public var kind: MDQKind
    public var entityID: String
}

public protocol MDQStore: Sendable {
    func loadAll() throws -> [MDQTask]
    func load(id: String) throws -> MDQTask?
    func save(_ task: MDQTask) throws
    func remove(id: String) throws
}

/// In-memory stand-in for the disk: keeps encoded rows, so everything round-trips like a file would.
public final class MDQMemoryStore: MDQStore, @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [String: Data] = [:]
    public init() {}

    public func loadAll() throws -> [MDQTask] {
        lock.lock(); let snapshot = rows; lock.unlock()
        return try snapshot.values.map { try JSONDecoder().decode(MDQTask.self, from: $0) }
    }
    public func load(id: String) throws -> MDQTask? {
        lock.lock(); let row = rows[id]; lock.unlock()
        return try row.map { try JSONDecoder().decode(MDQTask.self, from: $0) }
    }
    public func save(_ task: MDQTask) throws {
        let data = try JSONEncoder().encode(task)
        lock.lock(); rows[task.id] = data; lock.unlock()
    }
    public func remove(id: String) throws {
        lock.lock(); rows[id] = nil; lock.unlock()
    }
}

/// One JSON file per task in a directory.
public struct MDQDirectoryStore: MDQStore {
    public let directory: URL
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    private func fileURL(_ id: String) -> URL { directory.appendingPathComponent("\(id).json") }

    public func loadAll() throws -> [MDQTask] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return try names.filter { $0.hasSuffix(".json") }.compactMap { name in
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            return try JSONDecoder().decode(MDQTask.self, from: data)
        }
    }
    public func load(id: String) throws -> MDQTask? {
        let url = fileURL(id)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(MDQTask.self, from: Data(contentsOf: url))
    }
    public func save(_ task: MDQTask) throws {
        try JSONEncoder().encode(task).write(to: fileURL(task.id), options: .atomic)
    }
    public func remove(id: String) throws {
        let url = fileURL(id)
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }
}

public struct MDQRequest: Sendable, Equatable {
    public var operation: String
    public var idempotencyKey: String
    public var body: Data
    public var timeoutInterval: TimeInterval
    public var entityID: String
}

public struct MDQResponse: Sendable, Equatable {
    public var statusCode: Int
    public init(statusCode: Int) { self.statusCode = statusCode }
}

public struct MDQReceipt: Sendable, Equatable {
    public let taskID: String
    public let idempotencyKey: String
}

enum MDQOutcome: Equatable {
    case completed
    case retryLater(String)
    case stopped(String)
}

func mdqClassify(_ statusCode: Int) -> MDQOutcome {
    switch statusCode {
    case 200..<300: return .completed
    case 408, 429: return .retryLater("HTTP \(statusCode), will retry")
    case 409: return .stopped("HTTP 409 conflict: the server rejected this operation; not resent")
    case 400..<500: return .stopped("HTTP \(statusCode): request rejected; not resent")
    default: return .retryLater("HTTP \(statusCode): outcome unknown, will retry")
    }
}

/// Capped exponential backoff in seconds; `retryIndex` 0 is the first retry.
func mdqBackoffSeconds(retryIndex: Int, base: Double, cap: Double) -> Double {
    let exponent = Double(min(max(retryIndex, 0), 30))
    return min(cap, base * pow(2, exponent))
}

func mdqDuration(seconds: Double) -> Duration {
    .milliseconds(Int64((max(0, seconds) * 1000).rounded()))
}

func mdqNewID() -> String { UUID().uuidString }

public enum MDQKind: String, Codable, Sendable {
    case create
    case update
}

public typealias MDQTransport = @Sendable (MDQRequest) async throws -> MDQResponse

/// Draft queue with create/update operations. A new update for an entity that already has a
/// pending update which has never been sent is folded into that task (JSON fields shallow-merged,
/// newest wins); the merged task keeps its single key. Creates are never merged, and a task that
/// has been sent even once is never changed again (its retries must carry the same bytes).
public actor MergingDraftQueue {
    private let store: any MDQStore
    private let transport: MDQTransport
    private let now: @Sendable () -> Date
    private let baseDelay: Double
    private let maxDelay: Double
    private let requestTimeout: TimeInterval
    private let log: @Sendable (String) -> Void
    private var currentPass: Task<Void, Never>?
    private var inFlight: Set<String> = []

    public init(
        store: any MDQStore,
        transport: @escaping MDQTransport,
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
    public func create(entityID: String, body: Data) throws -> MDQReceipt {
        try enqueue(kind: .create, entityID: entityID, body: body)
    }

    @discardableResult
    public func update(entityID: String, body: Data) throws -> MDQReceipt {
        if var draft = try mergeableUpdate(for: entityID) {
            draft.body = Self.merge(old: draft.body, new: body)
            try store.save(draft)
            log("MergingDraftQueue: merged update into \(draft.id)")
            return MDQReceipt(taskID: draft.id, idempotencyKey: draft.idempotencyKey)
        }
        return try enqueue(kind: .update, entityID: entityID, body: body)
    }

    public func tasks() throws -> [MDQTask] {
        try store.loadAll().sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    public func flush() async {
        while let running = currentPass { await running.value }
        let pass = Task { await self.runPass() }
        currentPass = pass
        await pass.value
    }

    // MARK: private

    private func enqueue(kind: MDQKind, entityID: String, body: Data) throws -> MDQReceipt {
        let task = MDQTask(
            id: mdqNewID(), operation: kind.rawValue, body: body, idempotencyKey: mdqNewID(),
            createdAt: now(), status: .pending, attempts: 0, nextAttemptAt: nil, diagnostic: nil,
            kind: kind, entityID: entityID)
        try store.save(task)
        log("MergingDraftQueue: queued \(kind.rawValue) \(task.id)")
        return MDQReceipt(taskID: task.id, idempotencyKey: task.idempotencyKey)
    }

    private func mergeableUpdate(for entityID: String) throws -> MDQTask? {
        try store.loadAll()
            .filter {
                $0.kind == .update && $0.entityID == entityID && $0.status == .pending
                    && $0.attempts == 0 && !inFlight.contains($0.id)
            }
            .max { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            // Only the newest pending update may absorb: merging into an older one would
            // reorder it before a later (already attempted) update of the same entity.
            .flatMap { candidate in
                let newest = try? store.loadAll()
                    .filter { $0.entityID == entityID && $0.status == .pending }
                    .max { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
                return newest?.id == candidate.id ? candidate : nil
            }
    }

    static func merge(old: Data, new: Data) -> Data {
        guard let oldObject = try? JSONSerialization.jsonObject(with: old) as? [String: Any],
              let newObject = try? JSONSerialization.jsonObject(with: new) as? [String: Any] else {
            return new
        }
        let merged = oldObject.merging(newObject) { _, newest in newest }
        return (try? JSONSerialization.data(withJSONObject: merged, options: [.sortedKeys])) ?? new
    }

    private func runPass() async {
        defer { currentPass = nil }
        guard let snapshot = try? store.loadAll() else {
            log("MergingDraftQueue: store read failed")
            return
        }
        let ordered = snapshot
            .filter { $0.status == .pending }
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
        var blockedEntities: Set<String> = []
        for candidate in ordered {
            if blockedEntities.contains(candidate.entityID) { continue }
            // Re-read: the row may have been merged into or finished meanwhile.
            guard var task = try? store.load(id: candidate.id), task.status == .pending,
                  !inFlight.contains(task.id) else { continue }
            if let due = task.nextAttemptAt, due > now() {
                blockedEntities.insert(task.entityID)
                continue
            }
            task.attempts += 1
            do { try store.save(task) } catch {
                blockedEntities.insert(task.entityID)
                continue
            }
            inFlight.insert(task.id)
            let request = MDQRequest(
                operation: task.operation, idempotencyKey: task.idempotencyKey, body: task.body,
                timeoutInterval: requestTimeout, entityID: task.entityID)
            let outcome: MDQOutcome
            do {
                outcome = mdqClassify(try await transport(request).statusCode)
            } catch {
                outcome = .retryLater("transport error or timeout: outcome unknown, will retry")
            }
            inFlight.remove(task.id)
            switch outcome {
            case .completed:
                try? store.remove(id: task.id)
                log("MergingDraftQueue: completed \(task.id)")
            case .stopped(let reason):
                task.status = .failed
                task.diagnostic = reason
                task.nextAttemptAt = nil
                try? store.save(task)
                log("MergingDraftQueue: stopped \(task.id): \(reason)")
            case .retryLater(let reason):
                task.diagnostic = reason
                task.nextAttemptAt = now().addingTimeInterval(
                    mdqBackoffSeconds(retryIndex: task.attempts - 1, base: baseDelay, cap: maxDelay))
                try? store.save(task)
                blockedEntities.insert(task.entityID)
                log("MergingDraftQueue: \(task.id) attempt \(task.attempts): \(reason)")
            }
        }
    }
}
