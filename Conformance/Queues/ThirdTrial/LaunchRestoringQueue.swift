// CORRECT queue #6 — restores tasks from storage at launch in a background `Task`
// and immediately sends whatever is pending ("send on launch").
// In-memory cache + write-through storage; lock-protected; in-flight set.
// Backoff: stored `nextAttemptAt`, base 3 s doubling, cap 90 s.
import Foundation

public struct LaunchQueueItem: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable { case pending, completed, needsAttention, rejected }
    public let id: UUID
    public let operationID: String
    public let body: Data
    public let idempotencyKey: String
    public let createdAt: Date
    public var state: State
    public var attemptCount: Int
    public var nextAttemptAt: Date?
    public var diagnostic: String?
}

public protocol LaunchQueueStorage: Sendable {
    func loadAll() -> [LaunchQueueItem]
    func write(_ item: LaunchQueueItem)
}

public final class InMemoryLaunchQueueStorage: LaunchQueueStorage, @unchecked Sendable {
    private let lock = NSLock()
    private var items: [UUID: LaunchQueueItem] = [:]
    public init() {}
    public func loadAll() -> [LaunchQueueItem] { lock.withLock { Array(items.values) } }
    public func write(_ item: LaunchQueueItem) { lock.withLock { items[item.id] = item } }
}

public typealias LaunchQueueSend = @Sendable (_ headers: [String: String], _ body: Data) async throws -> Int

public final class LaunchRestoringQueue: @unchecked Sendable {
    public static let base: TimeInterval = 3, cap: TimeInterval = 90
    private let storage: any LaunchQueueStorage
    private let send: LaunchQueueSend
    private let now: @Sendable () -> Date
    private let lock = NSLock()
    private var cache: [UUID: LaunchQueueItem] = [:]
    private var inFlight: Set<UUID> = []
    private var launchTask: Task<Void, Never>?

    public init(storage: any LaunchQueueStorage, now: @escaping @Sendable () -> Date,
                send: @escaping LaunchQueueSend) {
        self.storage = storage; self.now = now; self.send = send
        launchTask = Task { [self] in
            restore()
            await sendPending()
        }
    }

    /// Await the launch restore+send (used by tests and by app-delegate code).
    public func launchCompleted() async { await lock.withLock { launchTask }?.value }

    private func restore() {
        let stored = storage.loadAll()
        lock.withLock {
            for item in stored where cache[item.id] == nil { cache[item.id] = item }
        }
    }

    public var items: [LaunchQueueItem] { lock.withLock { Array(cache.values) } }

    @discardableResult
    public func submit(operationID: String, body: Data) -> UUID {
        let item = LaunchQueueItem(id: UUID(), operationID: operationID, body: body,
                                   idempotencyKey: UUID().uuidString, createdAt: now(),
                                   state: .pending, attemptCount: 0, nextAttemptAt: nil, diagnostic: nil)
        storage.write(item)
        lock.withLock { cache[item.id] = item }
        return item.id
    }

    public func sendPending() async {
        restore()   // pick up anything written by a previous process
        let t = now()
        let claimed: [LaunchQueueItem] = lock.withLock {
            let due = cache.values.filter {
                $0.state == .pending && ($0.nextAttemptAt ?? .distantPast) <= t && !inFlight.contains($0.id)
            }.sorted { $0.createdAt < $1.createdAt }
            due.forEach { inFlight.insert($0.id) }
            return due
        }
        for item in claimed {
            let code: Int?
            do { code = try await send(["Idempotency-Key": item.idempotencyKey,
                                        "Content-Type": "application/json"], item.body) }
            catch { code = nil }
            let updated: LaunchQueueItem? = lock.withLock {
                defer { inFlight.remove(item.id) }
                guard var cur = cache[item.id] else { return nil }
                cur.attemptCount += 1
                switch code {
                case let c? where (200..<300).contains(c): cur.state = .completed
                case 409?:
                    cur.state = .needsAttention
                    cur.diagnostic = "Conflict (409) for \(cur.operationID): key reused with different body"
                case let c? where c == 408 || c == 429 || c >= 500:
                    cur.nextAttemptAt = now().addingTimeInterval(Self.delay(cur.attemptCount))
                case let c?:
                    cur.state = .rejected
                    cur.diagnostic = "Rejected (\(c)) for \(cur.operationID)"
                case nil:
                    cur.nextAttemptAt = now().addingTimeInterval(Self.delay(cur.attemptCount))
                }
                cache[item.id] = cur
                return cur
            }
            if let updated { storage.write(updated) }
        }
    }

    public static func delay(_ attempts: Int) -> TimeInterval {
        min(cap, base * pow(2, Double(max(0, attempts - 1))))
    }
}
