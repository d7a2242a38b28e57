import Foundation

// MARK: - Model & storage

public struct EDEntry: Codable, Sendable, Equatable {
    public let id: UUID
    public let operation: String
    public let body: Data
    public let idempotencyKey: String
    public var tries: Int
    public var nextTry: Date
    public var failedWithStatus: Int?
}

public protocol EDStore: Sendable {
    func readAll() -> [EDEntry]
    func writeAll(_ entries: [EDEntry]) throws
}

public final class EDMemoryStore: EDStore, @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [EDEntry] = []
    public init() {}
    public func readAll() -> [EDEntry] { lock.withLock { entries } }
    public func writeAll(_ entries: [EDEntry]) throws { lock.withLock { self.entries = entries } }
}

public final class EDFileStore: EDStore, @unchecked Sendable {
    private let url: URL
    public init(url: URL) { self.url = url }
    public func readAll() -> [EDEntry] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([EDEntry].self, from: data)) ?? []
    }
    public func writeAll(_ entries: [EDEntry]) throws {
        try JSONEncoder().encode(entries).write(to: url, options: .atomic)
    }
}

// MARK: - Transport

public struct EDRequest: Sendable, Equatable {
    public let entryID: UUID
    public let path: String
    public let body: Data
    public let headers: [String: String]
}

public protocol EDTransport: Sendable {
    /// Throws synchronously when the request cannot even be enqueued (offline, bad URL);
    /// otherwise calls `completion` later with the status code or a network error.
    func enqueue(_ request: EDRequest,
                 completion: @escaping @Sendable (Result<Int, Error>) -> Void) throws
}

// MARK: - Outbox

public final class EagerDeleteOutbox: @unchecked Sendable {
    public static let backoffBase: TimeInterval = 2
    public static let backoffCap: TimeInterval = 300

    private let store: EDStore
    private let transport: EDTransport
    private let now: @Sendable () -> Date
    private let log: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "EagerDeleteOutbox.state")

    public init(store: EDStore, transport: EDTransport,
                now: @escaping @Sendable () -> Date = { Date() },
                log: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.store = store
        self.transport = transport
        self.now = now
        self.log = log
    }

    /// Written to the store before returning.
    @discardableResult
    public func submit(operation: String, body: Data) throws -> UUID {
        let entry = EDEntry(id: UUID(), operation: operation, body: body,
                            idempotencyKey: UUID().uuidString, tries: 0, nextTry: now(),
                            failedWithStatus: nil)
        try queue.sync {
            var all = store.readAll()
            all.append(entry)
            try store.writeAll(all)
        }
        log("ed-outbox: stored \(entry.id) for \(operation)")
        return entry.id
    }

    public func entries() -> [EDEntry] { queue.sync { store.readAll() } }

    /// Hands every due entry to the transport. `completion` runs when all handed-off
    /// requests have answered.
    public func sync(completion: (@Sendable () -> Void)? = nil) {
        queue.async {
            let current = self.now()
            let due = self.store.readAll().filter { $0.failedWithStatus == nil && $0.nextTry <= current }
            let group = DispatchGroup()
            for entry in due {
                // Remove first: once the transport owns the request we must not send it twice.
                self.remove(entry.id)
                let request = EDRequest(entryID: entry.id, path: "/\(entry.operation)", body: entry.body,
                                        headers: ["Idempotency-Key": entry.idempotencyKey,
                                                  "Content-Type": "application/json"])
                group.enter()
                do {
                    try self.transport.enqueue(request) { result in
                        self.queue.async {
                            self.handle(result, for: entry)
                            group.leave()
                        }
                    }
                    self.log("ed-outbox: handed \(entry.id) to transport")
                } catch {
                    self.log("ed-outbox: could not enqueue \(entry.id): \(type(of: error)); keeping it")
                    self.reinsert(entry, retrying: true)
                    group.leave()
                }
            }
            group.notify(queue: .global()) { completion?() }
        }
    }

    public func sync() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            sync { continuation.resume() }
        }
    }

    private func handle(_ result: Result<Int, Error>, for entry: EDEntry) {
        switch result {
        case .success(let status) where (200..<300).contains(status):
            log("ed-outbox: \(entry.id) accepted (\(status))")
        case .success(let status) where (400..<500).contains(status) && status != 408 && status != 429:
            log("ed-outbox: \(entry.id) rejected (\(status))")
            var failed = entry
            failed.failedWithStatus = status
            reinsert(failed, retrying: false)
        case .success(let status):
            log("ed-outbox: \(entry.id) got \(status); transport layer handles retries")
        case .failure(let error):
            log("ed-outbox: \(entry.id) network error \(type(of: error))")
        }
    }

    private func remove(_ id: UUID) {
        let all = store.readAll().filter { $0.id != id }
        do { try store.writeAll(all) } catch { log("ed-outbox: write failed: \(type(of: error))") }
    }

    private func reinsert(_ entry: EDEntry, retrying: Bool) {
        var entry = entry
        if retrying {
            entry.tries += 1
            let delay = min(Self.backoffCap, Self.backoffBase * pow(2, Double(min(entry.tries - 1, 30))))
            entry.nextTry = now().addingTimeInterval(delay)
        }
        var all = store.readAll()
        all.append(entry)
        do { try store.writeAll(all) } catch { log("ed-outbox: write failed: \(type(of: error))") }
    }
}
