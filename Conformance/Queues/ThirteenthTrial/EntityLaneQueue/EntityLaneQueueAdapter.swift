import WriteQueueContracts
import Foundation


/// The app's HTTP client, backed by the kit's controlled transport: the idempotency key travels
/// in the `Idempotency-Key` header, the body is the mutation's payload (the kit's `.plain` layout).
struct KitMutationHTTPClient: MutationHTTPClient {
    let transport: ControlledTransport

    func perform(_ request: MutationHTTPRequest) async throws -> MutationHTTPResponse {
        let response = try await transport.send(
            WriteRequest(idempotencyKey: request.headers[EntityLaneQueue.idempotencyHeader], body: request.body))
        return MutationHTTPResponse(statusCode: response.statusCode, body: response.body)
    }
}

enum EntityLaneQueueAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429],
        terminalStatusCodes: Set(400...499).subtracting([408, 429]),
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(60)),
        sensitiveFields: ["card"])

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("EntityLaneQueue-\(UUID().uuidString)", isDirectory: true)
    }

    static func launch(from storage: URL, environment: QueueEnvironment) async throws -> EntityLaneQueue {
        try EntityLaneQueue(
            directory: storage,
            client: KitMutationHTTPClient(transport: environment.transport),
            clock: environment.clock,
            now: environment.now,
            retryPolicy: LaneRetryPolicy(base: .seconds(1), cap: .seconds(60)))
    }

    static func submit(_ operation: QueueOperation, to queue: EntityLaneQueue) async throws {
        switch operation.kind {
        case .create:
            // A new report gets a client-generated entity ID, as the app does.
            try await queue.enqueue(
                .create, entityID: UUID().uuidString, payload: operation.body, clientTag: operation.id)
        case .update(let entity):
            try await queue.enqueue(.update, entityID: entity, payload: operation.body, clientTag: operation.id)
        }
    }

    static func runSendingPass(_ queue: EntityLaneQueue) async throws {
        try await queue.flush()
    }

    static func persistedTasks(in storage: URL) async throws -> [PersistedTask] {
        try MutationStore(directory: storage).loadAll().map { mutation in
            PersistedTask(
                operationID: mutation.clientTag ?? mutation.id.uuidString,
                key: mutation.idempotencyKey.uuidString,
                body: mutation.payload,
                status: mutation.needsAttention ? .needsAttention : .pending,
                attempts: mutation.attemptCount,
                createdAt: String(mutation.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: mutation.blockedReason)
        }
    }

    static func diagnostics(of queue: EntityLaneQueue, storage: URL) async -> [String] {
        await queue.diagnosticLog
    }

    static func discardStorage(_ storage: URL) {
        try? FileManager.default.removeItem(at: storage)
    }
}
