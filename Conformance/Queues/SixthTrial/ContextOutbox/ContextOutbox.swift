import Foundation

// MARK: - Rows & persistent store

public struct CORow: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable { case pending, failed }
    public let id: UUID
    public let operation: String
    public let body: Data
    public let idempotencyKey: String
    public var attempts: Int
    public var nextAttemptAt: Date
    public var lockedUntil: Date?
    public var state: State
    /// Why the row stopped, for the person who must resolve it (added when bundled: Q4).
    public var failureReason: String? = nil
}

/// Backing store shared by contexts (like a persistent store coordinator). `nil` file = in memory.
public final class COPersistentStore: @unchecked Sendable {
    let lock = NSRecursiveLock()
    private let fileURL: URL?
    private var memoryRows: [CORow] = []

    public init(fileURL: URL? = nil) { self.fileURL = fileURL }

    func load() -> [CORow] {
        guard let fileURL else { return memoryRows }
        guard let data = try? Data(contentsOf: fileURL) else { return [] }
        return (try? JSONDecoder().decode([CORow].self, from: data)) ?? []
    }

    func write(_ rows: [CORow]) throws {
        guard let fileURL else { memoryRows = rows; return }
        try JSONEncoder().encode(rows).write(to: fileURL, options: .atomic)
    }
}

/// A hand-written managed-object-context lookalike: blocks run on a private serial queue,
/// each block sees a fresh snapshot of the store and `save()` writes it back.
public final class StoreContext: @unchecked Sendable {
    private let store: COPersistentStore
    private let queue = DispatchQueue(label: "StoreContext.private")
    /// Only valid inside a `perform` block.
    public var rows: [CORow] = []

    public init(store: COPersistentStore) { self.store = store }

    public func perform(_ block: @escaping @Sendable () -> Void) {
        queue.async {
            self.store.lock.lock()
            defer { self.store.lock.unlock() }
            self.rows = self.store.load()
            block()
        }
    }

    public func save() throws { try store.write(rows) }
}

// MARK: - Transport

public struct CORequest: Sendable, Equatable {
    public let rowID: UUID
    public let operation: String
    public let body: Data
    public let headers: [String: String]
    public let timeout: TimeInterval
}

public protocol COTransport: Sendable {
    /// Status code, or throws (transport error / timeout after `request.timeout`).
    func send(_ request: CORequest) async throws -> Int
}

// MARK: - Outbox

public final class ContextOutbox: Sendable {
    public static let requestTimeout: TimeInterval = 30
    public static let leaseLength: TimeInterval = requestTimeout + 5
    public static let backoffBase: TimeInterval = 2
    public static let backoffCap: TimeInterval = 300

    private let context: StoreContext
    private let transport: COTransport
    private let now: @Sendable () -> Date
    private let log: @Sendable (String) -> Void

    public init(context: StoreContext, transport: COTransport,
                now: @escaping @Sendable () -> Date = { Date() },
                log: @escaping @Sendable (String) -> Void = { print($0) }) {
        self.context = context
        self.transport = transport
        self.now = now
        self.log = log
    }

    private func performAsync<T: Sendable>(_ block: @escaping @Sendable (StoreContext) -> T) async -> T {
        await withCheckedContinuation { continuation in
            let context = self.context
            context.perform { continuation.resume(returning: block(context)) }
        }
    }

    @discardableResult
    public func submit(operation: String, body: Data) async throws -> UUID {
        let row = CORow(id: UUID(), operation: operation, body: body, idempotencyKey: UUID().uuidString,
                        attempts: 0, nextAttemptAt: now(), lockedUntil: nil, state: .pending)
        let result: Result<Void, Error> = await performAsync { context in
            context.rows.append(row)
            return Result { try context.save() }
        }
        try result.get()
        log("context-outbox: inserted row \(row.id) (\(operation))")
        return row.id
    }

    public func rows() async -> [CORow] { await performAsync { $0.rows } }

    /// Claims due rows with a lease, sends them, and records the outcomes.
    public func drain() async {
        let now = self.now
        let claimed: [CORow] = await performAsync { context in
            let current = now()
            var claimed: [CORow] = []
            for index in context.rows.indices {
                let row = context.rows[index]
                guard row.state == .pending, row.nextAttemptAt <= current else { continue }
                if let lockedUntil = row.lockedUntil, lockedUntil > current { continue }
                context.rows[index].lockedUntil = current.addingTimeInterval(Self.leaseLength)
                claimed.append(context.rows[index])
            }
            if claimed.isEmpty { return [] }
            do { try context.save() } catch { return [] }
            return claimed
        }
        await withTaskGroup(of: Void.self) { group in
            for row in claimed {
                group.addTask { await self.deliver(row) }
            }
        }
    }

    private func deliver(_ row: CORow) async {
        let request = CORequest(rowID: row.id, operation: row.operation, body: row.body,
                                headers: ["Idempotency-Key": row.idempotencyKey,
                                          "Content-Type": "application/json"],
                                timeout: Self.requestTimeout)
        log("context-outbox: POST \(row.operation) row=\(row.id) attempt=\(row.attempts + 1)")
        let outcome: Result<Int, Error>
        do { outcome = .success(try await transport.send(request)) } catch { outcome = .failure(error) }
        let now = self.now
        let log = self.log
        await performAsync { context in
            guard let index = context.rows.firstIndex(where: { $0.id == row.id }) else { return }
            switch outcome {
            case .success(let status) where (200..<300).contains(status):
                context.rows.remove(at: index)
                log("context-outbox: row \(row.id) delivered (\(status))")
            case .success(let status) where (400..<500).contains(status) && status != 408 && status != 429:
                context.rows[index].state = .failed
                context.rows[index].failureReason = "HTTP \(status): rejected by the server; not resent"
                context.rows[index].lockedUntil = nil
                log("context-outbox: row \(row.id) rejected (\(status))")
            case .success, .failure:
                var updated = context.rows[index]
                updated.attempts += 1
                let delay = min(Self.backoffCap, Self.backoffBase * pow(2, Double(min(updated.attempts - 1, 30))))
                updated.nextAttemptAt = now().addingTimeInterval(delay)
                updated.lockedUntil = nil
                context.rows[index] = updated
                log("context-outbox: row \(row.id) outcome unknown, retry in \(delay)s")
            }
            try? context.save()
        }
    }
}
