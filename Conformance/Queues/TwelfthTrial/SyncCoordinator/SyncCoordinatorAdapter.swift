import Foundation
import WriteQueueContracts

/// Runs the conformance kit's write-queue contracts (Q1–Q12) against `SyncCoordinator`.
///
/// Storage is the coordinator's property-list file; a crash is the kit dropping the instance
/// and creating a new one over the same file.
enum SyncCoordinatorAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        conflictProfile: .sourceDocument,
        retryableStatusCodes: [408, 429],
        storageIsOnDisk: true,
        coalescesUpdates: true,
        backoff: .capped(at: .seconds(5)))

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("SyncCoordinatorConformance", isDirectory: true)
            .appendingPathComponent(UUID().uuidString, isDirectory: true)
            .appendingPathComponent("pending-changes.plist")
    }

    static func launch(from fileURL: URL, environment: QueueEnvironment) async throws -> SyncCoordinator {
        let transport = environment.transport
        let clock = environment.clock
        let client = ConformanceHTTPClient { request, completion in
            transport.send(request, completion: completion)
        }
        return try SyncCoordinator(
            fileURL: fileURL, client: client,
            sleep: { try await clock.sleep(for: $0) },
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to coordinator: SyncCoordinator) async throws {
        if case .update(let entity) = operation.kind {
            try coordinator.enqueueUpdate(
                entityID: entity, path: "/v1/notes/\(entity)", body: operation.body, label: operation.id)
        } else {
            try coordinator.enqueueCreate(path: "/v1/notes", body: operation.body, label: operation.id)
        }
    }

    static func runSendingPass(_ coordinator: SyncCoordinator) async throws {
        await coordinator.flush()
    }

    static func persistedTasks(in fileURL: URL) async throws -> [PersistedTask] {
        try SyncCoordinator.storedChanges(at: fileURL).map { change in
            PersistedTask(
                operationID: change.label, key: change.idempotencyKey, body: change.body,
                status: change.state == .needsAttention ? .needsAttention : .pending,
                attempts: change.attempts,
                createdAt: String(change.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: change.state == .needsAttention ? change.lastError : nil)
        }
    }

    static func waitForPendingWork(in coordinator: SyncCoordinator) async {
        coordinator.waitUntilIdle()
    }

    static func discardStorage(_ fileURL: URL) {
        try? FileManager.default.removeItem(at: fileURL.deletingLastPathComponent())
    }
}

/// The app's `HTTPClient` over the kit's transport: the idempotency key travels as the
/// `Idempotency-Key` header in the app, and as `WriteRequest.idempotencyKey` here.
struct ConformanceHTTPClient: HTTPClient {
    typealias Forward = @Sendable (WriteRequest, @escaping @Sendable (Result<WriteResponse, any Error>) -> Void) -> Void

    let forward: Forward

    init(forward: @escaping Forward) {
        self.forward = forward
    }

    func send(
        _ request: HTTPRequest,
        completion: @escaping @Sendable (Result<(status: Int, body: Data), any Error>) -> Void
    ) {
        let write = WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body ?? Data())
        forward(write) { result in
            completion(result.map { (status: $0.statusCode, body: $0.body) })
        }
    }
}

