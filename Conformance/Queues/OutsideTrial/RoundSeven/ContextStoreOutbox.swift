// From an outside trial (round seven): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only. Its bug (by its author's
// choice): a terminal 4xx stores and logs the server's message word for word (Q10).

import Foundation

/// ContextStoreOutbox: a Core-Data-like stack. Managed objects live in a context whose every access
/// runs in `perform` blocks on a private serial queue; `save()` writes the store file. The app
/// drives sending from a background-task handler that may be expired by the system.

public final class ContextStoreItem: @unchecked Sendable {
    public enum State: String, Codable, Sendable { case pending, failed }
    public let objectID: UUID
    public var operationName: String
    public var idempotencyKey: String
    public var payload: Data
    public var createdAt: Date
    public var state: State
    public var retryCount: Int
    public var nextAttemptAt: Date
    public var lastError: String?

    init(record: ContextStoreFile.Record) {
        objectID = record.objectID
        operationName = record.operationName
        idempotencyKey = record.idempotencyKey
        payload = record.payload
        createdAt = record.createdAt
        state = record.state
        retryCount = record.retryCount
        nextAttemptAt = record.nextAttemptAt
        lastError = record.lastError
    }

    var record: ContextStoreFile.Record {
        .init(objectID: objectID, operationName: operationName, idempotencyKey: idempotencyKey, payload: payload,
              createdAt: createdAt, state: state, retryCount: retryCount, nextAttemptAt: nextAttemptAt, lastError: lastError)
    }
}

public struct ContextStoreFile: Sendable {
    public struct Record: Codable, Sendable {
        public var objectID: UUID
        public var operationName: String
        public var idempotencyKey: String
        public var payload: Data
        public var createdAt: Date
        public var state: ContextStoreItem.State
        public var retryCount: Int
        public var nextAttemptAt: Date
        public var lastError: String?
    }

    public let url: URL
    public init(url: URL) { self.url = url }

    public func load() throws -> [Record] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        return try decoder.decode([Record].self, from: Data(contentsOf: url))
    }

    func write(_ records: [Record]) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONEncoder().encode(records).write(to: url, options: .atomic)
    }
}

public final class ContextStoreContext: @unchecked Sendable {
    private let queue = DispatchQueue(label: "r7.outbox.context")
    private let store: ContextStoreFile
    private var objects: [UUID: ContextStoreItem] = [:]
    private var loaded = false
    /// Transient (not saved): objects a sender has checked out.
    var checkedOut: Set<UUID> = []

    public init(store: ContextStoreFile) { self.store = store }

    public func perform<T: Sendable>(_ block: @escaping @Sendable (ContextStoreContext) throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result { try block(self) }) }
        }
    }

    public func performAndWait<T>(_ block: (ContextStoreContext) throws -> T) rethrows -> T {
        try queue.sync { try block(self) }
    }

    // The calls below must run inside perform.

    private func faultIn() throws {
        guard !loaded else { return }
        for r in try store.load() { objects[r.objectID] = ContextStoreItem(record: r) }
        loaded = true
    }

    func insert(_ item: ContextStoreItem) throws {
        try faultIn()
        objects[item.objectID] = item
    }

    func fetch(where predicate: (ContextStoreItem) -> Bool) throws -> [ContextStoreItem] {
        try faultIn()
        return objects.values.filter(predicate).sorted { ($0.createdAt, $0.objectID.uuidString) < ($1.createdAt, $1.objectID.uuidString) }
    }

    func object(with id: UUID) throws -> ContextStoreItem? {
        try faultIn()
        return objects[id]
    }

    func delete(_ item: ContextStoreItem) throws {
        try faultIn()
        objects[item.objectID] = nil
    }

    func save() throws {
        try faultIn()
        try store.write(objects.values.sorted { $0.createdAt < $1.createdAt }.map(\.record))
    }
}

/// What the system hands the app for a background refresh (BGAppRefreshTask-like).
public final class ContextStoreSyncTask: @unchecked Sendable {
    private let lock = NSLock()
    private var expired = false
    public var expirationHandler: (@Sendable () -> Void)?
    public init() {}
    public var isExpired: Bool { lock.lock(); defer { lock.unlock() }; return expired }
    public func expire() {
        lock.lock(); expired = true; lock.unlock()
        expirationHandler?()
    }
}

public final class ContextStoreOutbox: @unchecked Sendable {
    public typealias Upload = @Sendable (_ key: String, _ payload: Data) async throws -> (status: Int, body: Data)

    private let context: ContextStoreContext
    private let upload: Upload
    private let now: @Sendable () -> Date
    private let maxBackoff: TimeInterval
    private let logLock = NSLock()
    private var logLines: [String] = []

    public init(storeURL: URL, maxBackoff: TimeInterval = 10, now: @escaping @Sendable () -> Date, upload: @escaping Upload) {
        context = ContextStoreContext(store: ContextStoreFile(url: storeURL))
        self.upload = upload
        self.now = now
        self.maxBackoff = maxBackoff
    }

    public var log: [String] { logLock.lock(); defer { logLock.unlock() }; return logLines }
    private func note(_ line: String) { logLock.lock(); logLines.append(line); logLock.unlock() }

    /// Barrier behind every block queued on the context.
    public func waitUntilIdle() { context.performAndWait { _ in } }

    public func enqueue(operation: String, payload: Data) async throws {
        let now = self.now
        try await context.perform { ctx in
            let t = now()
            let record = ContextStoreFile.Record(objectID: UUID(), operationName: operation, idempotencyKey: UUID().uuidString,
                                                  payload: payload, createdAt: t, state: .pending, retryCount: 0,
                                                  nextAttemptAt: t, lastError: nil)
            try ctx.insert(ContextStoreItem(record: record))
            try ctx.save()
        }
        note("enqueued \(operation)")
    }

    private struct Checkout: Sendable { let id: UUID; let key: String; let payload: Data; let name: String }

    /// The app's background-task handler: send what is due until done or expired.
    public func handleBackgroundSync(_ task: ContextStoreSyncTask) async throws {
        let now = self.now
        var done: Set<UUID> = []
        while !task.isExpired {
            let skip = done
            let next: Checkout? = try await context.perform { ctx in
                let t = now()
                guard let item = try ctx.fetch(where: {
                    $0.state == .pending && $0.nextAttemptAt <= t && !ctx.checkedOut.contains($0.objectID) && !skip.contains($0.objectID)
                }).first else { return nil }
                ctx.checkedOut.insert(item.objectID)
                return Checkout(id: item.objectID, key: item.idempotencyKey, payload: item.payload, name: item.operationName)
            }
            guard let next else { return }
            done.insert(next.id)
            let result: Result<(status: Int, body: Data), any Error>
            do { result = .success(try await upload(next.key, next.payload)) } catch { result = .failure(error) }
            try await apply(result, to: next)
        }
    }

    private func apply(_ result: Result<(status: Int, body: Data), any Error>, to checkout: Checkout) async throws {
        let now = self.now
        let cap = maxBackoff
        let line: String = try await context.perform { ctx in
            defer { ctx.checkedOut.remove(checkout.id) }
            guard let item = try ctx.object(with: checkout.id) else { return "\(checkout.name): gone" }
            let line: String
            switch result {
            case .success(let answer) where (200..<300).contains(answer.status):
                try ctx.delete(item)
                line = "\(checkout.name) uploaded"
            case .success(let answer) where (400..<500).contains(answer.status) && answer.status != 408 && answer.status != 429:
                item.state = .failed
                item.lastError = "HTTP \(answer.status): \(Self.serverMessage(answer.body))"
                line = "\(checkout.name) failed: \(item.lastError!)"
            case .success(let answer):
                item.retryCount += 1
                item.nextAttemptAt = now().addingTimeInterval(min(cap, pow(2, Double(min(item.retryCount, 20)))) / 2)
                line = "\(checkout.name) will retry (HTTP \(answer.status))"
            case .failure:
                item.retryCount += 1
                item.nextAttemptAt = now().addingTimeInterval(min(cap, pow(2, Double(min(item.retryCount, 20)))) / 2)
                line = "\(checkout.name) will retry (network error)"
            }
            try ctx.save()
            return line
        }
        note(line)
    }

    /// The server's explanation, shown to the user in the "needs attention" list.
    static func serverMessage(_ body: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
            return String(decoding: body, as: UTF8.self)
        }
        return (object["message"] as? String) ?? (object["error"] as? String) ?? "no details"
    }

    public static func storedItems(at storeURL: URL) throws -> [ContextStoreFile.Record] {
        try ContextStoreFile(url: storeURL).load()
    }
}
