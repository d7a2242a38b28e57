import WriteQueueContracts
import Foundation

enum MutationUploaderAdapter: WriteQueueAdapter {
    // The operation's body sits at mutations[0].record; the key travels in the header.
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true,
        backoff: .capped(at: .seconds(64)),
        requestLayout: RequestLayout(operationBody: ["mutations", "0", "record"]))

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    }

    static func launch(from folder: URL, environment: QueueEnvironment) async throws -> MutationUploader {
        let transport = environment.transport
        return try MutationUploader(folder: folder, post: { key, body, done in
            transport.send(WriteRequest(idempotencyKey: key, body: body)) { result in
                done(result.map(\.statusCode))
            }
        }, now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to uploader: MutationUploader) async throws {
        try uploader.save(reference: operation.id,
                          collection: operation.entity.map { "visits/\($0)" } ?? "visits",
                          record: operation.body)
    }

    static func runSendingPass(_ uploader: MutationUploader) async throws {
        await withCheckedContinuation { continuation in
            uploader.upload { continuation.resume() }
        }
    }

    static func persistedTasks(in folder: URL) async throws -> [PersistedTask] {
        MutationUploader.stored(in: folder).map { mutation in
            PersistedTask(
                operationID: mutation.reference, key: mutation.idempotencyKey, body: mutation.record,
                status: mutation.phase == .stopped ? .needsAttention : .pending,
                attempts: mutation.attempts,
                createdAt: String(mutation.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: mutation.stopReason)
        }
    }

    static func diagnostics(of uploader: MutationUploader, storage: URL) async -> [String] {
        uploader.log
    }

    static func discardStorage(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }
}
