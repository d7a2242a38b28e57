import Foundation
import WriteQueueContracts

/// Collects the outbox's log lines, as the app's logger would.
public final class JBOAdapterLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    public init() {}
    public func append(_ line: String) { lock.lock(); storage.append(line); lock.unlock() }
    public var lines: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}

public struct JBOAdapterInstance: Sendable {
    public let outbox: JitterBackoffOutbox
    public let log: JBOAdapterLog
}

public enum JitterBackoffOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429],
        terminalStatusCodes: [400, 401, 403, 404, 410, 413, 422],
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(60)),
        requestTimeout: .seconds(30))

    public static func makeStorage() throws -> JBOMemoryStore { JBOMemoryStore() }

    public static func launch(from storage: JBOMemoryStore, environment: QueueEnvironment) async throws -> JBOAdapterInstance {
        let log = JBOAdapterLog()
        let transport = environment.transport
        let outbox = JitterBackoffOutbox(
            store: storage,
            transport: { request in
                let response = try await transport.send(
                    WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body))
                return JBOResponse(statusCode: response.statusCode)
            },
            clock: environment.clock,
            now: environment.now,
            log: { log.append($0) })
        return JBOAdapterInstance(outbox: outbox, log: log)
    }

    public static func submit(_ operation: QueueOperation, to queue: JBOAdapterInstance) async throws {
        try await queue.outbox.submit(operation: "createItem", body: operation.body)
    }

    public static func runSendingPass(_ queue: JBOAdapterInstance) async throws {
        await queue.outbox.flush()
    }

    public static func persistedTasks(in storage: JBOMemoryStore) async throws -> [PersistedTask] {
        try storage.loadAll()
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            .map {
                PersistedTask(
                    operationID: $0.id, key: $0.idempotencyKey, body: $0.body,
                    status: $0.status == .failed ? .needsAttention : .pending, attempts: $0.attempts,
                    createdAt: String($0.createdAt.timeIntervalSinceReferenceDate), diagnostic: $0.diagnostic)
            }
    }

    public static func diagnostics(of queue: JBOAdapterInstance, storage: JBOMemoryStore) async -> [String] {
        queue.log.lines + ((try? storage.loadAll()) ?? []).compactMap(\.diagnostic)
    }
}
