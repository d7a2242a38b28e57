import Foundation
import WriteQueueContracts

/// UserDefaults stand-in for tests: keeps property-list values, copying them through a
/// binary plist on every write and read (UserDefaults copies too). It is what survives a crash.
final class PlistDefaultsStore: OutboxKeyValueStore, @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Data] = [:]

    func dictionary(forKey key: String) -> [String: Any]? {
        lock.lock(); defer { lock.unlock() }
        guard let data = values[key] else { return nil }
        return (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any]
    }

    func set(_ value: Any?, forKey key: String) {
        lock.lock(); defer { lock.unlock() }
        guard let value else { values[key] = nil; return }
        values[key] = try! PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
    }
}

/// The DispatchSourceTimer wrapper's test twin: waits on the kit's manual clock.
final class ClockRetryTimer: OutboxRetryTimer, @unchecked Sendable {
    private let clock: ManualClock
    private let lock = NSLock()
    private var task: Task<Void, Never>?
    init(clock: ManualClock) { self.clock = clock }

    func schedule(after seconds: TimeInterval, _ fire: @escaping @Sendable () -> Void) {
        lock.lock(); defer { lock.unlock() }
        task?.cancel()
        let clock = self.clock
        task = Task {
            do { try await clock.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up)))) } catch { return }
            fire()
        }
    }

    func cancel() {
        lock.lock(); defer { lock.unlock() }
        task?.cancel()
        task = nil
    }
}

func defaultsOutboxPost(_ transport: ControlledTransport) -> OutboxPost {
    { key, body in
        let response = try await transport.send(WriteRequest(idempotencyKey: key, body: body))
        return OutboxHTTPResult(statusCode: response.statusCode)
    }
}

func defaultsOutboxPersisted(_ tasks: [DefaultsOutbox.StoredTask]) -> [PersistedTask] {
    tasks.map {
        PersistedTask(
            operationID: $0.label, key: $0.key, body: $0.bodyJSON,
            status: $0.isStuck ? .needsAttention : .pending, attempts: $0.attempts,
            createdAt: String($0.createdAt.timeIntervalSinceReferenceDate), diagnostic: $0.reason)
    }
}

enum DefaultsOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(exposesDiagnostics: true, backoff: .capped(at: .seconds(60)))

    static func makeStorage() throws -> PlistDefaultsStore { PlistDefaultsStore() }
    static func launch(from storage: PlistDefaultsStore, environment: QueueEnvironment) async throws -> DefaultsOutbox {
        DefaultsOutbox(
            store: storage, timer: ClockRetryTimer(clock: environment.clock), now: environment.now,
            post: defaultsOutboxPost(environment.transport))
    }
    static func submit(_ operation: QueueOperation, to queue: DefaultsOutbox) async throws {
        try await queue.enqueue(label: operation.id, json: operation.body)
    }
    static func runSendingPass(_ queue: DefaultsOutbox) async throws { await queue.flush() }
    static func persistedTasks(in storage: PlistDefaultsStore) async throws -> [PersistedTask] {
        defaultsOutboxPersisted(DefaultsOutbox.storedTasks(in: storage))
    }
    static func diagnostics(of queue: DefaultsOutbox, storage: PlistDefaultsStore) async -> [String] { await queue.log }
}

enum SnapshotOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(exposesDiagnostics: true, backoff: .capped(at: .seconds(60)))

    static func makeStorage() throws -> PlistDefaultsStore { PlistDefaultsStore() }
    static func launch(from storage: PlistDefaultsStore, environment: QueueEnvironment) async throws -> SnapshotOutbox {
        SnapshotOutbox(
            store: storage, timer: ClockRetryTimer(clock: environment.clock), now: environment.now,
            post: defaultsOutboxPost(environment.transport))
    }
    static func submit(_ operation: QueueOperation, to queue: SnapshotOutbox) async throws {
        try await queue.enqueue(label: operation.id, json: operation.body)
    }
    static func runSendingPass(_ queue: SnapshotOutbox) async throws { await queue.flush() }
    static func persistedTasks(in storage: PlistDefaultsStore) async throws -> [PersistedTask] {
        defaultsOutboxPersisted(SnapshotOutbox.storedTasks(in: storage))
    }
    static func diagnostics(of queue: SnapshotOutbox, storage: PlistDefaultsStore) async -> [String] { await queue.log }
}

