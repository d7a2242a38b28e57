import Foundation
import WriteQueueContracts

public final class OQOAdapterLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    public init() {}
    public func append(_ line: String) { lock.lock(); storage.append(line); lock.unlock() }
    public var lines: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}

public struct OQOAdapterInstance: Sendable {
    public let outbox: OperationQueueOutbox
    public let log: OQOAdapterLog
}

public enum OperationQueueOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429],
        terminalStatusCodes: [400, 401, 403, 404, 410, 413, 422],
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(300)),
        requestTimeout: .seconds(30))

    public static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("OQO-\(UUID().uuidString)")
    }

    public static func launch(from directory: URL, environment: QueueEnvironment) async throws -> OQOAdapterInstance {
        let log = OQOAdapterLog()
        let transport = environment.transport
        let outbox = OperationQueueOutbox(
            store: try OQODirectoryStore(directory: directory),
            transport: { request, completion in
                transport.send(WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body)) { result in
                    completion(result.map { OQOResponse(statusCode: $0.statusCode) })
                }
            },
            now: environment.now,
            log: { log.append($0) })
        return OQOAdapterInstance(outbox: outbox, log: log)
    }

    public static func submit(_ operation: QueueOperation, to instance: OQOAdapterInstance) async throws {
        try instance.outbox.submit(operation: "createItem", body: operation.body)
    }

    public static func runSendingPass(_ instance: OQOAdapterInstance) async throws {
        await instance.outbox.flush()
    }

    public static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try OQODirectoryStore(directory: directory).loadAll()
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            .map {
                PersistedTask(
                    operationID: $0.id, key: $0.idempotencyKey, body: $0.body,
                    status: $0.status == .failed ? .needsAttention : .pending, attempts: $0.attempts,
                    createdAt: String($0.createdAt.timeIntervalSinceReferenceDate), diagnostic: $0.diagnostic)
            }
    }

    public static func diagnostics(of instance: OQOAdapterInstance, storage: URL) async -> [String] {
        instance.log.lines + ((try? OQODirectoryStore(directory: storage).loadAll()) ?? []).compactMap(\.diagnostic)
    }

    public static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
