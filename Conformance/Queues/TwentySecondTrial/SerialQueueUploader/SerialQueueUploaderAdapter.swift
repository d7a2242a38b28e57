import WriteQueueContracts
import Foundation

/// The app's network layer, backed by the kit's transport. Called from the uploader's state
/// queue; the transport calls back on its own thread.
struct KitUploadNetworking: UploadNetworking {
    let transport: ControlledTransport

    func upload(_ request: Trial22UploadRequest, completion: @escaping @Sendable (Result<UploadReply, any Error>) -> Void) {
        let write = WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)
        transport.send(write) { result in
            completion(result.map { UploadReply(status: $0.statusCode, body: $0.body) })
        }
    }
}

enum SerialQueueUploaderAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(45)),
        sensitiveFields: ["card", "password"])

    /// The storage is the journal file's URL, inside a fresh directory.
    static func makeStorage() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("SerialQueueUploader-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("uploads.json")
    }

    static func launch(from storage: URL, environment: QueueEnvironment) async throws -> SerialQueueUploader {
        try SerialQueueUploader(
            journalURL: storage,
            network: KitUploadNetworking(transport: environment.transport),
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to queue: SerialQueueUploader) async throws {
        try await queue.enqueue(tag: operation.id, payload: operation.body)
    }

    static func runSendingPass(_ queue: SerialQueueUploader) async throws {
        await queue.sendPending()
    }

    static func persistedTasks(in storage: URL) async throws -> [PersistedTask] {
        try SerialQueueUploader.readJournal(at: storage).entries.map { entry in
            PersistedTask(
                operationID: entry.tag,
                key: entry.idempotencyKey,
                body: entry.payload,
                status: entry.state == .held ? .needsAttention : .pending,
                attempts: entry.tries,
                createdAt: String(entry.queuedAtMillis),
                diagnostic: entry.heldBecause)
        }
    }

    static func diagnostics(of queue: SerialQueueUploader, storage: URL) async -> [String] {
        await queue.recentEvents()
    }

    static func discardStorage(_ storage: URL) {
        try? FileManager.default.removeItem(at: storage.deletingLastPathComponent())
    }

    /// The uploader answers, decides and sends from blocks on its own serial queue.
    static func waitForPendingWork(in queue: SerialQueueUploader) async {
        await queue.drainStateQueue()
    }
}
