import Foundation
import WriteQueueContracts

/// Drives the app-style ``CallbackOutbox`` (a class with a private serial queue, a
/// completion-handler transport, one file per record, backoff as a `notBefore` due time),
/// unchanged. The kit's passes play the periodic sync.
public enum CallbackOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true,
        backoff: .capped(at: .seconds(120)),  // maxDelay's default, kept as a due time
        sensitiveFields: CallbackOutbox.sensitiveFields)

    /// The app's completion-handler transport (a `URLSession` data task), through the kit's.
    struct Transport: CallbackOutboxTransport {
        let kit: ControlledTransport
        func send(
            _ request: CallbackOutboxRequest,
            completion: @escaping @Sendable (Result<(status: Int, body: Data), any Error>) -> Void
        ) {
            kit.send(WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)) {
                completion($0.map { (status: $0.statusCode, body: $0.body) })
            }
        }
    }

    public static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("CallbackOutbox-\(UUID().uuidString)")
    }

    public static func launch(from directory: URL, environment: QueueEnvironment) async throws -> CallbackOutbox {
        try CallbackOutbox(directory: directory, transport: Transport(kit: environment.transport), now: environment.now)
    }

    public static func submit(_ operation: QueueOperation, to outbox: CallbackOutbox) async throws {
        try outbox.submit(body: operation.body)
    }

    public static func runSendingPass(_ outbox: CallbackOutbox) async throws { await outbox.flush() }

    /// The record files, read from disk (the outbox's copy dies with the process).
    static func storedRecords(in directory: URL) throws -> [CallbackOutboxRecord] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "record" }
            .compactMap { file in
                // The outbox's own queue may delete a record between the listing and the read.
                guard let data = try? Data(contentsOf: file) else { return nil }
                return try JSONDecoder().decode(CallbackOutboxRecord.self, from: data)
            }
            .sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }

    public static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try storedRecords(in: directory).map { record in
            PersistedTask(
                operationID: record.id.uuidString, key: record.idempotencyKey, body: record.body,
                status: record.status == .pending ? .pending : .needsAttention, attempts: record.attempts,
                createdAt: "\(record.createdAt.timeIntervalSince1970)", diagnostic: record.diagnostic)
        }
    }

    /// The queue has no log; its diagnostics are the ones it stores on stopped records.
    public static func diagnostics(of outbox: CallbackOutbox, storage: URL) async -> [String] {
        ((try? storedRecords(in: storage)) ?? []).compactMap(\.diagnostic)
    }

    public static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
}

extension CallbackOutboxAdapter {
    /// The outbox works on its private serial queue; `storedRecords()` runs `queue.sync`, a
    /// barrier behind whatever a flush or a completion has enqueued there.
    public static func waitForPendingWork(in outbox: CallbackOutbox) async {
        _ = outbox.storedRecords()
    }
}
