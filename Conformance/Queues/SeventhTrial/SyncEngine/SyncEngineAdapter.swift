import WriteQueueContracts
import Dispatch
import Foundation

/// The "disk" that survives a crash: encoded bytes under one key, like a defaults entry.
final class InMemoryPendingWriteStorage: PendingWriteStorage, @unchecked Sendable {
    private let lock = NSLock()
    private var blob: Data?

    func loadPendingWrites() throws -> [String: PendingWrite] {
        guard let data = lock.withLock({ blob }) else { return [:] }
        return try JSONDecoder().decode([String: PendingWrite].self, from: data)
    }
    func savePendingWrites(_ writes: [String: PendingWrite]) throws {
        let data = try JSONEncoder().encode(writes)
        lock.withLock { blob = data }
    }
}

/// The app's client shape, over the kit's transport, calling back on a serial queue.
struct KitCallbackClient: CallbackHTTPClient {
    let transport: ControlledTransport
    let callbackQueue = DispatchQueue(label: "r7q.api.callbacks")

    func send(_ request: HTTPRequestValue, completion: @escaping @Sendable (Result<HTTPResponseValue, any Error>) -> Void) {
        let queue = callbackQueue
        transport.send(WriteRequest(idempotencyKey: request.headers[SyncEngine.idempotencyHeader], body: request.body)) { result in
            queue.async { completion(result.map { HTTPResponseValue(statusCode: $0.statusCode, body: $0.body) }) }
        }
    }
}

enum SyncEngineAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(retryableStatusCodes: [401, 408, 429])

    static func makeStorage() throws -> InMemoryPendingWriteStorage { InMemoryPendingWriteStorage() }

    static func launch(from storage: InMemoryPendingWriteStorage, environment: QueueEnvironment) async throws -> SyncEngine {
        let client = KitCallbackClient(transport: environment.transport)
        let now = environment.now
        return try await MainActor.run { try SyncEngine(storage: storage, client: client, now: now) }
    }

    static func submit(_ operation: QueueOperation, to engine: SyncEngine) async throws {
        try await MainActor.run { _ = try engine.enqueue(path: "/v1/tickets", payload: operation.body, sourceID: operation.id) }
    }

    @MainActor
    static func runSendingPass(_ engine: SyncEngine) async throws {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            engine.syncNow { done.resume() }
        }
    }

    static func persistedTasks(in storage: InMemoryPendingWriteStorage) async throws -> [PersistedTask] {
        try storage.loadPendingWrites().values.map { write in
            var status = QueueTaskStatus.pending
            var diagnostic: String?
            if case .needsReview(let reason) = write.status { status = .needsAttention; diagnostic = reason }
            return PersistedTask(
                operationID: write.sourceID, key: write.id, body: write.payload, status: status,
                attempts: write.attempts, createdAt: String(write.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: diagnostic)
        }
    }
}
