import WriteQueueContracts
import Foundation


/// The app's completion-handler transport, backed by the kit's: the token travels in
/// `X-Upload-Token` (the kit's key), the body is the upload's payload.
struct KitUploadTransport: UploadTransport {
    let transport: ControlledTransport

    func send(_ request: UploadRequest, completion: @escaping @Sendable (Result<UploadResponse, any Error>) -> Void) {
        transport.send(WriteRequest(idempotencyKey: request.headers[UploadCenter.tokenHeader], body: request.body)) { result in
            completion(result.map { UploadResponse(statusCode: $0.statusCode, body: $0.body) })
        }
    }
}

enum UploadCenterAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429],
        terminalStatusCodes: Set(400...499).subtracting([408, 429]),
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(64)),
        sensitiveFields: ["card"])

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("UploadCenter-\(UUID().uuidString)", isDirectory: true)
    }

    static func launch(from storage: URL, environment: QueueEnvironment) async throws -> UploadCenter {
        try UploadCenter(
            directory: storage,
            transport: KitUploadTransport(transport: environment.transport),
            now: environment.now,
            backoff: UploadBackoff(base: 1, cap: 64))
    }

    static func submit(_ operation: QueueOperation, to queue: UploadCenter) async throws {
        try queue.enqueue(payload: operation.body, reference: operation.id)
    }

    static func runSendingPass(_ queue: UploadCenter) async throws {
        await queue.flush()
    }

    static func persistedTasks(in storage: URL) async throws -> [PersistedTask] {
        try UploadCenter.storedUploads(in: storage).map { upload in
            let status: QueueTaskStatus
            switch upload.state {
            case .queued: status = .pending
            case .uploading: status = .inFlight
            case .failed: status = .needsAttention
            }
            return PersistedTask(
                operationID: upload.reference ?? upload.id.uuidString,
                key: upload.uploadToken,
                body: upload.payload,
                status: status,
                attempts: upload.attempts,
                createdAt: String(upload.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: upload.failureReason)
        }
    }

    static func diagnostics(of queue: UploadCenter, storage: URL) async -> [String] {
        queue.recentEvents
    }

    static func discardStorage(_ storage: URL) {
        try? FileManager.default.removeItem(at: storage)
    }

    /// Completions hop onto the center's serial queue: a barrier behind them.
    static func waitForPendingWork(in queue: UploadCenter) async {
        queue.waitUntilIdle()
    }
}
