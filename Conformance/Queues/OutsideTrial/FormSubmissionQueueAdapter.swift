import Foundation
import WriteQueueContracts

/// Storage is the queue's folder (one JSON file per submission); the queue sleeps on the kit's
/// manual clock between the tries of one sync.
enum FormSubmissionQueueAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(storageIsOnDisk: true, backoff: .capped(at: .seconds(30)))

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("form-submissions-\(UUID().uuidString)")
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws
        -> FormSubmissionQueue<ManualClock>
    {
        let transport = environment.transport
        return try FormSubmissionQueue(
            folder: directory,
            post: { key, body in
                try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
            },
            clock: environment.clock, now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to queue: FormSubmissionQueue<ManualClock>) async throws {
        try await queue.submit(operation.body, reference: operation.id)
    }

    static func runSendingPass(_ queue: FormSubmissionQueue<ManualClock>) async throws {
        try await queue.sync()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try FormSubmissionQueue<ManualClock>.submissions(in: directory).map {
            PersistedTask(
                operationID: $0.reference, key: $0.idempotencyKey, body: $0.payload,
                status: $0.status == .waiting ? .pending : .needsAttention, attempts: $0.tries,
                createdAt: String($0.submittedAt.timeIntervalSinceReferenceDate), diagnostic: $0.stopReason)
        }
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
