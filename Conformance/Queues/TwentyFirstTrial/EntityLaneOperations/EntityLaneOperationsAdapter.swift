import WriteQueueContracts
import Foundation

enum EntityLaneOperationsAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(EntityLaneOutbox.maximumDelay)),
        requestTimeout: .seconds(60))  // URLSessionConfiguration's default timeoutIntervalForRequest

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> EntityLaneOutbox {
        let transport = environment.transport
        return try EntityLaneOutbox(
            directory: directory,
            upload: { key, body, completion in
                transport.send(WriteRequest(idempotencyKey: key, body: body)) { result in
                    completion(result.map(\.statusCode))
                }
            },
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: EntityLaneOutbox) async throws {
        try outbox.enqueue(label: operation.id, entity: operation.entity, body: operation.body)
    }

    static func runSendingPass(_ outbox: EntityLaneOutbox) async throws {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            outbox.flush { done.resume() }
        }
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try FieldServiceOutboxFile(directory: directory).records().map { record in
            PersistedTask(
                operationID: record.label, key: record.idempotencyKey, body: record.body,
                status: record.stopReason == nil ? .pending : .needsAttention,
                attempts: record.attempts,
                createdAt: String(record.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: record.stopReason)
        }
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
