import Foundation
import WriteQueueContracts

/// Drives the app-style ``NewestFirstOutbox`` (one JSON file per task, newest first, a `send`
/// closure and a `sleep` closure), unchanged.
public enum NewestFirstOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true,
        backoff: .capped(at: .seconds(30)),  // maxBackoff's default
        sensitiveFields: NewestFirstOutbox.sensitiveFields)

    public static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("NewestFirstOutbox-\(UUID().uuidString)")
    }

    public static func launch(from directory: URL, environment: QueueEnvironment) async throws -> NewestFirstOutbox {
        let transport = environment.transport
        let clock = environment.clock
        return try NewestFirstOutbox(
            directory: directory,
            send: { request in
                try await transport.send(
                    WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)
                ).statusCode
            },
            sleep: { delay in try await clock.sleep(for: delay) },
            now: environment.now)
    }

    public static func submit(_ operation: QueueOperation, to outbox: NewestFirstOutbox) async throws {
        try await outbox.submit(operation.body)
    }

    public static func runSendingPass(_ outbox: NewestFirstOutbox) async throws { try await outbox.flush() }

    /// The task files, decoded as the outbox decodes them.
    static func storedTasks(in directory: URL) throws -> [NewestFirstOutbox.StoredTask] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .map { try JSONDecoder().decode(NewestFirstOutbox.StoredTask.self, from: Data(contentsOf: $0)) }
            .sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }

    public static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try storedTasks(in: directory).map { task in
            PersistedTask(
                operationID: task.id.uuidString, key: task.idempotencyKey, body: task.body,
                status: task.status == .pending ? .pending : .needsAttention, attempts: task.attempts,
                createdAt: "\(task.createdAt.timeIntervalSince1970)", diagnostic: task.diagnostic)
        }
    }

    /// The queue has no log; its diagnostics are the ones it stores on stopped tasks.
    public static func diagnostics(of outbox: NewestFirstOutbox, storage: URL) async -> [String] {
        ((try? storedTasks(in: storage)) ?? []).compactMap(\.diagnostic)
    }

    public static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
}
