import Foundation
import WriteQueueContracts

public final class SLOAdapterLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    public init() {}
    public func append(_ line: String) { lock.lock(); storage.append(line); lock.unlock() }
    public var lines: [String] { lock.lock(); defer { lock.unlock() }; return storage }
}

public struct SLOAdapterInstance: Sendable {
    public let outbox: ShortLeaseOutbox
    public let log: SLOAdapterLog
}

public enum ShortLeaseOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429],
        terminalStatusCodes: [400, 401, 403, 404, 410, 413, 422],
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(300)),
        requestTimeout: .seconds(30))

    public static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("SLO-\(UUID().uuidString)")
    }

    public static func launch(from directory: URL, environment: QueueEnvironment) async throws -> SLOAdapterInstance {
        let log = SLOAdapterLog()
        let transport = environment.transport
        let outbox = try ShortLeaseOutbox(
            directory: directory,
            transport: { request in
                let response = try await transport.send(
                    WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body))
                return SLOResponse(statusCode: response.statusCode)
            },
            now: environment.now,
            log: { log.append($0) })
        return SLOAdapterInstance(outbox: outbox, log: log)
    }

    public static func submit(_ operation: QueueOperation, to instance: SLOAdapterInstance) async throws {
        try await instance.outbox.submit(operation: "createItem", body: operation.body)
    }

    public static func runSendingPass(_ instance: SLOAdapterInstance) async throws {
        await instance.outbox.flush()
    }

    public static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try SLODirectoryStore(directory: directory).loadAll()
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
            .map {
                PersistedTask(
                    operationID: $0.id, key: $0.idempotencyKey, body: $0.body,
                    status: $0.status == .failed ? .needsAttention : .pending, attempts: $0.attempts,
                    createdAt: String($0.createdAt.timeIntervalSinceReferenceDate), diagnostic: $0.diagnostic)
            }
    }

    public static func diagnostics(of instance: SLOAdapterInstance, storage: URL) async -> [String] {
        instance.log.lines + ((try? SLODirectoryStore(directory: storage).loadAll()) ?? []).compactMap(\.diagnostic)
    }

    public static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
