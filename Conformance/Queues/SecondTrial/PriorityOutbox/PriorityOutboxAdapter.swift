import Foundation
import WriteQueueContracts

public final class POAdapterLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    public init() {}
    public func append(_ line: String) { lock.lock(); storage.append(line); lock.unlock() }
    public var lines: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}

public struct POAdapterInstance: Sendable {
    public let outbox: PriorityOutbox
    public let log: POAdapterLog
}

public enum PriorityOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429],
        terminalStatusCodes: [400, 401, 403, 404, 410, 413, 422],
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(300)),
        requestTimeout: .seconds(30))

    public static func makeStorage() throws -> POMemoryStore { POMemoryStore() }

    public static func launch(from storage: POMemoryStore, environment: QueueEnvironment) async throws -> POAdapterInstance {
        let log = POAdapterLog()
        let transport = environment.transport
        let outbox = PriorityOutbox(
            store: storage,
            transport: { request in
                let response = try await transport.send(
                    WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body))
                return POResponse(statusCode: response.statusCode)
            },
            now: environment.now,
            log: { log.append($0) })
        return POAdapterInstance(outbox: outbox, log: log)
    }

    public static func submit(_ operation: QueueOperation, to instance: POAdapterInstance) async throws {
        try await instance.outbox.submit(operation: "createItem", body: operation.body)
    }

    public static func runSendingPass(_ instance: POAdapterInstance) async throws {
        await instance.outbox.flush()
    }

    public static func persistedTasks(in storage: POMemoryStore) async throws -> [PersistedTask] {
        try storage.loadAll()
            .sorted(by: PriorityOutbox.sendOrder)
            .map {
                PersistedTask(
                    operationID: $0.id, key: $0.idempotencyKey, body: $0.body,
                    status: $0.status == .failed ? .needsAttention : .pending, attempts: $0.attempts,
                    createdAt: String($0.createdAt.timeIntervalSinceReferenceDate), diagnostic: $0.diagnostic)
            }
    }

    public static func diagnostics(of instance: POAdapterInstance, storage: POMemoryStore) async -> [String] {
        instance.log.lines + ((try? storage.loadAll()) ?? []).compactMap(\.diagnostic)
    }
}
