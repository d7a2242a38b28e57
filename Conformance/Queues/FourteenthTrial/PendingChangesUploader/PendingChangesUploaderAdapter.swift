import WriteQueueContracts
import Foundation

/// Runs `PendingChangesUploader` (completion handlers on a serial DispatchQueue, one JSON file,
/// leases and due times in the file) under the write-queue contracts.
enum PendingChangesUploaderAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(30)),
        sensitiveFields: ["card", "cvv"],
        requestTimeout: .seconds(60))

    static func makeStorage() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("PendingChangesUploader-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> PendingChangesUploader {
        let transport = environment.transport
        return try PendingChangesUploader(
            directory: directory,
            send: { request, completion in
                transport.send(WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body)) { result in
                    completion(result.map(\.statusCode))
                }
            },
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to uploader: PendingChangesUploader) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            uploader.enqueue(label: operation.id, body: operation.body) { continuation.resume(with: $0) }
        }
    }

    static func runSendingPass(_ uploader: PendingChangesUploader) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            uploader.flush { continuation.resume() }
        }
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try PendingChangesUploader.storedChanges(in: directory).map { change in
            PersistedTask(
                operationID: change.label,
                key: change.idempotencyKey,
                body: change.body,
                status: change.status == .needsAttention ? .needsAttention : .pending,
                attempts: change.attempts,
                createdAt: String(change.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: change.diagnostic)
        }
    }

    static func diagnostics(of uploader: PendingChangesUploader, storage: URL) async -> [String] {
        await withCheckedContinuation { continuation in
            uploader.diagnostics { continuation.resume(returning: $0) }
        }
    }

    static func waitForPendingWork(in uploader: PendingChangesUploader) async {
        uploader.waitUntilIdle()
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
