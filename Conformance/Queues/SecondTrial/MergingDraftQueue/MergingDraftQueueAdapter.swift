import Foundation
import WriteQueueContracts

public final class MDQAdapterLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    public init() {}
    public func append(_ line: String) { lock.lock(); storage.append(line); lock.unlock() }
    public var lines: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}

public struct MDQAdapterInstance: Sendable {
    public let queue: MergingDraftQueue
    public let log: MDQAdapterLog
}

public enum MergingDraftQueueAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429],
        terminalStatusCodes: [400, 401, 403, 404, 410, 413, 422],
        exposesDiagnostics: true,
        coalescesUpdates: true,
        backoff: .capped(at: .seconds(300)),
        requestTimeout: .seconds(30))

    public static func makeStorage() throws -> MDQMemoryStore { MDQMemoryStore() }

    public static func launch(from storage: MDQMemoryStore, environment: QueueEnvironment) async throws -> MDQAdapterInstance {
        let log = MDQAdapterLog()
        let transport = environment.transport
        let queue = MergingDraftQueue(
            store: storage,
            transport: { request in
                let response = try await transport.send(
                    WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body))
                return MDQResponse(statusCode: response.statusCode)
            },
            now: environment.now,
            log: { log.append($0) })
        return MDQAdapterInstance(queue: queue, log: log)
    }

    public static func submit(_ operation: QueueOperation, to instance: MDQAdapterInstance) async throws {
        switch operation.kind {
        case .create:
            // The app makes a client-side ID for a new entity.
            try await instance.queue.create(entityID: UUID().uuidString, body: operation.body)
        case .update(let entity):
            try await instance.queue.update(entityID: entity, body: operation.body)
        }
    }

    public static func runSendingPass(_ instance: MDQAdapterInstance) async throws {
        await instance.queue.flush()
    }

    public static func persistedTasks(in storage: MDQMemoryStore) async throws -> [PersistedTask] {
        try storage.loadAll()
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            .map {
                PersistedTask(
                    operationID: $0.id, key: $0.idempotencyKey, body: $0.body,
                    status: $0.status == .failed ? .needsAttention : .pending, attempts: $0.attempts,
                    createdAt: String($0.createdAt.timeIntervalSinceReferenceDate), diagnostic: $0.diagnostic)
            }
    }

    public static func diagnostics(of instance: MDQAdapterInstance, storage: MDQMemoryStore) async -> [String] {
        instance.log.lines + ((try? storage.loadAll()) ?? []).compactMap(\.diagnostic)
    }
}
