import Foundation
import WriteQueueContracts

/// The second version of the eighth outside round's reachability outbox: its sync runs in an
/// unstructured `Task` that every caller awaits (the first caller starts it, later ones ask it to
/// go round once more and join it), and each request races its 30 s timeout on the injected
/// clock in a task group. Correct: due times are stored as `Date`s, backoff is capped at 60 s.
actor TaskJoinedReachabilityOutbox {
    struct Item: Codable, Sendable, Equatable {
        let id: UUID
        let label: String
        let idempotencyKey: String
        let body: Data
        let createdAt: Date
        var attempts: Int
        var notBefore: Date?
        var stoppedReason: String?
    }

    typealias Send = @Sendable (_ idempotencyKey: String, _ body: Data) async throws -> Int

    private enum Outcome: Sendable {
        case answered(Int)
        case noAnswer
        case timedOut
    }

    private let fileURL: URL
    private let send: Send
    private let clock: ManualClock
    private let now: @Sendable () -> Date
    private var items: [Item]
    private var sync: Task<Void, Never>?
    private var rerunRequested = false

    init(fileURL: URL, send: @escaping Send, clock: ManualClock, now: @escaping @Sendable () -> Date) throws {
        self.fileURL = fileURL
        self.send = send
        self.clock = clock
        self.now = now
        items = try Self.load(from: fileURL)
    }

    func enqueue(label: String, body: Data) throws {
        items.append(Item(
            id: UUID(), label: label, idempotencyKey: UUID().uuidString, body: body, createdAt: now(),
            attempts: 0, notBefore: nil, stoppedReason: nil))
        try save()
    }

    /// Starts a sync, or asks the running one to go round once more; returns when it is done.
    func networkBecameReachable() async {
        if let sync {
            rerunRequested = true
            await sync.value
            return
        }
        let task = Task { await self.syncUntilNothingIsAsked() }
        sync = task
        await task.value
    }

    private func syncUntilNothingIsAsked() async {
        repeat {
            rerunRequested = false
            await drainOnce()
        } while rerunRequested
        sync = nil
    }

    private func drainOnce() async {
        for id in items.filter(isDue).map(\.id) {
            guard let item = items.first(where: { $0.id == id }), isDue(item) else { continue }
            apply(await attempt(item), to: id)
        }
    }

    private func isDue(_ item: Item) -> Bool {
        item.stoppedReason == nil && (item.notBefore.map { $0 <= now() } ?? true)
    }

    private func attempt(_ item: Item) async -> Outcome {
        let send = self.send
        let clock = self.clock
        let key = item.idempotencyKey
        let body = item.body
        return await withTaskGroup(of: Outcome?.self) { group in
            group.addTask {
                do { return .answered(try await send(key, body)) } catch { return .noAnswer }
            }
            group.addTask {
                do {
                    try await clock.sleep(for: .seconds(30))
                    return .timedOut
                } catch {
                    return nil
                }
            }
            var first: Outcome = .noAnswer
            for await result in group {
                if let result {
                    first = result
                    break
                }
            }
            group.cancelAll()
            return first
        }
    }

    private func apply(_ outcome: Outcome, to id: UUID) {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return }
        switch outcome {
        case .answered(let status) where (200..<300).contains(status):
            items.remove(at: index)
        case .answered(let status) where status == 408 || status == 429:
            scheduleRetry(at: index)
        case .answered(let status) where (400..<500).contains(status):
            items[index].attempts += 1
            items[index].stoppedReason = "HTTP \(status)"
        case .answered, .noAnswer, .timedOut:
            scheduleRetry(at: index)
        }
        try? save()
    }

    private func scheduleRetry(at index: Int) {
        items[index].attempts += 1
        let exponent = min(max(items[index].attempts - 1, 0), 16)
        items[index].notBefore = now().addingTimeInterval(min(pow(2, Double(exponent)), 60))
    }

    private func save() throws {
        try JSONEncoder().encode(items).write(to: fileURL, options: .atomic)
    }

    static func load(from url: URL) throws -> [Item] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try JSONDecoder().decode([Item].self, from: Data(contentsOf: url))
    }
}

enum TaskJoinedReachabilityAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        storageIsOnDisk: true, backoff: .capped(at: .seconds(60)), requestTimeout: .seconds(30))

    static func makeStorage() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("TaskJoined-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("outbox.json")
    }

    static func launch(from file: URL, environment: QueueEnvironment) async throws -> TaskJoinedReachabilityOutbox {
        let transport = environment.transport
        return try TaskJoinedReachabilityOutbox(fileURL: file, send: { key, body in
            try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
        }, clock: environment.clock, now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: TaskJoinedReachabilityOutbox) async throws {
        try await outbox.enqueue(label: operation.id, body: operation.body)
    }

    static func runSendingPass(_ outbox: TaskJoinedReachabilityOutbox) async throws {
        await outbox.networkBecameReachable()
    }

    static func persistedTasks(in file: URL) async throws -> [PersistedTask] {
        try TaskJoinedReachabilityOutbox.load(from: file).map { item in
            PersistedTask(operationID: item.label, key: item.idempotencyKey, body: item.body,
                          status: item.stoppedReason == nil ? .pending : .needsAttention,
                          attempts: item.attempts,
                          createdAt: String(item.createdAt.timeIntervalSinceReferenceDate),
                          diagnostic: item.stoppedReason)
        }
    }

    static func discardStorage(_ file: URL) {
        try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
    }
}
