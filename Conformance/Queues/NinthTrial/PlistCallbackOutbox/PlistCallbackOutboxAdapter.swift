import Foundation
import WriteQueueContracts

/// The app's URLSession wrapper, pointed at the kit's transport.
struct PlistOutboxKitClient: PlistOutboxHTTPClient {
    let transport: ControlledTransport
    func post(idempotencyKey: String, body: Data, completion: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        transport.send(WriteRequest(idempotencyKey: idempotencyKey, body: body)) { result in
            completion(result.map(\.statusCode))
        }
    }
}

enum PlistCallbackOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true, backoff: .capped(at: .seconds(16)))

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("r9q-callback-\(UUID().uuidString)")
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> PlistCallbackOutbox {
        try PlistCallbackOutbox(
            directory: directory, client: PlistOutboxKitClient(transport: environment.transport), now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: PlistCallbackOutbox) async throws {
        try outbox.enqueue(id: operation.id, body: operation.body)
    }

    static func runSendingPass(_ outbox: PlistCallbackOutbox) async throws { await outbox.flush() }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        PlistCallbackOutbox.items(in: directory).map {
            PersistedTask(
                operationID: $0.id, key: $0.idempotencyKey, body: $0.body,
                status: $0.isHeld ? .needsAttention : .pending, attempts: $0.attempts,
                createdAt: String($0.createdAt.timeIntervalSinceReferenceDate), diagnostic: $0.heldReason)
        }
    }

    static func diagnostics(of outbox: PlistCallbackOutbox, storage: URL) async -> [String] { outbox.log }

    static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }

    static func waitForPendingWork(in outbox: PlistCallbackOutbox) async { outbox.barrier() }
}
