import WriteQueueContracts
import Foundation

/// Storage is the uploader's folder (events.json). 401 stays in the default terminal set: the
/// uploader never resends a 401 by itself, it holds the event until the user signs in again, so
/// the event is reported as needing attention, with its reason.
enum BatchedEventsUploaderAdapter: WriteQueueAdapter {
    typealias Storage = URL
    typealias Queue = BatchedEventsUploader

    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        coalescesUpdates: true,
        backoff: .capped(at: .seconds(BatchedEventsUploaderSupport.backoffCap)),
        sensitiveFields: ["card", "cardNumber", "cvv", "password"])

    static func makeStorage() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("BatchedEventsUploader-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func launch(from storage: URL, environment: QueueEnvironment) async throws -> BatchedEventsUploader {
        let transport = environment.transport
        return try await BatchedEventsUploader(
            directory: storage,
            sensitiveFields: capabilities.sensitiveFields,
            now: environment.now,
            post: { key, body in
                let response = try await transport.send(WriteRequest(idempotencyKey: key, body: body))
                return BatchedEventsUploaderReply(status: response.statusCode, body: response.body)
            })
    }

    static func submit(_ operation: QueueOperation, to queue: BatchedEventsUploader) async throws {
        try await queue.enqueue(
            operationID: operation.id, entity: operation.entity, body: operation.body,
            sensitiveFields: operation.sensitiveFields)
    }

    static func runSendingPass(_ queue: BatchedEventsUploader) async throws {
        await queue.uploadDue()
    }

    static func persistedTasks(in storage: URL) async throws -> [PersistedTask] {
        try BatchedEventsUploaderSupport.load(from: storage).events.map { event in
            PersistedTask(
                operationID: event.operationID, key: event.key, body: event.body, status: status(of: event.state),
                attempts: event.attempts, createdAt: event.createdAt,
                diagnostic: (event.state == .stopped || event.state == .awaitingSignIn) ? event.note : nil)
        }
    }

    static func diagnostics(of queue: BatchedEventsUploader, storage: URL) async -> [String] {
        await queue.diagnostics
    }

    static func discardStorage(_ storage: URL) {
        try? FileManager.default.removeItem(at: storage)
    }

    private static func status(of state: BatchedEventsUploaderEvent.State) -> QueueTaskStatus {
        switch state {
        case .pending: return .pending
        case .sent: return .completed
        case .stopped, .awaitingSignIn: return .needsAttention
        }
    }
}
