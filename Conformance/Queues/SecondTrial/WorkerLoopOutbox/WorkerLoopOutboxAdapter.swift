import Foundation
import WriteQueueContracts

public final class WLOAdapterLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    public init() {}
    public func append(_ line: String) { lock.lock(); storage.append(line); lock.unlock() }
    public var lines: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}

public struct WLOAdapterInstance: Sendable {
    public let outbox: WorkerLoopOutbox
    public let log: WLOAdapterLog
}

public enum WorkerLoopOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429],
        terminalStatusCodes: [400, 401, 403, 404, 410, 413, 422],
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(300)),
        sendsOnLaunch: true,
        requestTimeout: .seconds(30))

    public static func makeStorage() throws -> WLOMemoryStore { WLOMemoryStore() }

    /// The app builds the outbox at launch and starts its worker, which drains what storage
    /// holds by itself (`sendsOnLaunch`: the kit's startup pass, a `flush()`, waits for that
    /// drain). The worker's retry timer is the queue's own: the kit runs a pass at its deadline.
    public static func launch(from storage: WLOMemoryStore, environment: QueueEnvironment) async throws -> WLOAdapterInstance {
        let log = WLOAdapterLog()
        let transport = environment.transport
        let outbox = WorkerLoopOutbox(
            store: storage,
            transport: { request in
                let response = try await transport.send(
                    WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body))
                return WLOResponse(statusCode: response.statusCode)
            },
            clock: environment.clock,
            now: environment.now,
            log: { log.append($0) })
        await outbox.start()
        return WLOAdapterInstance(outbox: outbox, log: log)
    }

    /// The app's submit wakes the worker, which sends at once; awaiting `flush()` here is how a
    /// caller waits for the work that submit started.
    public static func submit(_ operation: QueueOperation, to instance: WLOAdapterInstance) async throws {
        try await instance.outbox.submit(operation: "createItem", body: operation.body)
        await instance.outbox.flush()
    }

    public static func runSendingPass(_ instance: WLOAdapterInstance) async throws {
        await instance.outbox.flush()
    }

    /// The worker holds the outbox actor between its sends: any call of the actor is a barrier
    /// behind the work queued on it so far.
    public static func waitForPendingWork(in instance: WLOAdapterInstance) async {
        _ = try? await instance.outbox.tasks()
    }

    public static func persistedTasks(in storage: WLOMemoryStore) async throws -> [PersistedTask] {
        try storage.loadAll()
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            .map {
                PersistedTask(
                    operationID: $0.id, key: $0.idempotencyKey, body: $0.body,
                    status: $0.status == .failed ? .needsAttention : .pending, attempts: $0.attempts,
                    createdAt: String($0.createdAt.timeIntervalSinceReferenceDate), diagnostic: $0.diagnostic)
            }
    }

    public static func diagnostics(of instance: WLOAdapterInstance, storage: WLOMemoryStore) async -> [String] {
        instance.log.lines + ((try? storage.loadAll()) ?? []).compactMap(\.diagnostic)
    }
}
