import Foundation
import WriteQueueContracts

/// Drives the app-style ``RestoringOutbox`` (one `pending-items.json` array restored
/// asynchronously at launch by `start()`, which then sends), unchanged.
public enum RestoringOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true,
        backoff: .capped(at: .seconds(45)),  // maxBackoff's default
        sendsOnLaunch: true,  // the app calls `start()` at launch
        sensitiveFields: RestoringOutbox.sensitiveFields)

    /// The app's transport, sending through the kit's.
    struct Transport: RestoringOutboxTransport {
        let kit: ControlledTransport
        func send(_ request: RestoringOutboxRequest) async throws -> Int {
            try await kit.send(
                WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)
            ).statusCode
        }
    }

    public static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("RestoringOutbox-\(UUID().uuidString)")
    }

    public static func launch(from directory: URL, environment: QueueEnvironment) async throws -> RestoringOutbox {
        RestoringOutbox(
            directory: directory, transport: Transport(kit: environment.transport), clock: environment.clock,
            now: environment.now)
    }

    public static func submit(_ operation: QueueOperation, to outbox: RestoringOutbox) async throws {
        try await outbox.submit(operation.body)
    }

    /// `start()` is the launch pass (restore, then flush); once restored it is exactly `flush()`,
    /// so the same call serves the kit's later passes.
    public static func runSendingPass(_ outbox: RestoringOutbox) async throws { try await outbox.start() }

    /// `pending-items.json`, read from disk (the actor's copy dies with the process).
    static func storedItems(in directory: URL) throws -> [RestoringOutboxItem] {
        let file = directory.appendingPathComponent("pending-items.json")
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        return try JSONDecoder().decode([RestoringOutboxItem].self, from: Data(contentsOf: file))
    }

    public static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try storedItems(in: directory).map { item in
            PersistedTask(
                operationID: item.id.uuidString, key: item.idempotencyKey, body: item.body,
                status: item.status == .pending ? .pending : .needsAttention, attempts: item.attempts,
                createdAt: "\(item.createdAt.timeIntervalSince1970)", diagnostic: item.diagnostic)
        }
    }

    /// The queue has no log; its diagnostics are the ones it stores on stopped items.
    public static func diagnostics(of outbox: RestoringOutbox, storage: URL) async -> [String] {
        ((try? storedItems(in: storage)) ?? []).compactMap(\.diagnostic)
    }

    public static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
}
