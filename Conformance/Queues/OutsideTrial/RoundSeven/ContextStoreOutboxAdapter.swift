// From an outside trial (round seven): the adapter its author wrote, names changed only (its
// debug tracing removed).

import Foundation
import WriteQueueContracts

private let contextStoreTerminal: Set<Int> = Set(400..<500).subtracting([408, 409, 429])

enum ContextStoreOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429], terminalStatusCodes: contextStoreTerminal, exposesDiagnostics: true,
        storageIsOnDisk: true, backoff: .capped(at: .seconds(10)))
    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("context-store-outbox-\(UUID().uuidString)")
    }
    private static func store(in storage: URL) -> URL { storage.appendingPathComponent("Outbox.store") }
    static func launch(from storage: URL, environment: QueueEnvironment) async throws -> ContextStoreOutbox {
        let transport = environment.transport
        return ContextStoreOutbox(storeURL: store(in: storage), now: environment.now, upload: { key, payload in
            let response = try await transport.send(WriteRequest(idempotencyKey: key, body: payload))
            return (response.statusCode, response.body)
        })
    }
    static func submit(_ operation: QueueOperation, to queue: ContextStoreOutbox) async throws {
        try await queue.enqueue(operation: operation.id, payload: operation.body)
    }
    static func runSendingPass(_ queue: ContextStoreOutbox) async throws {
        try await queue.handleBackgroundSync(ContextStoreSyncTask())
    }
    static func persistedTasks(in storage: URL) async throws -> [PersistedTask] {
        try ContextStoreOutbox.storedItems(at: store(in: storage)).map {
            PersistedTask(operationID: $0.operationName, key: $0.idempotencyKey, body: $0.payload,
                          status: $0.state == .failed ? .needsAttention : .pending,
                          attempts: $0.retryCount, diagnostic: $0.state == .failed ? $0.lastError : nil)
        }
    }
    static func diagnostics(of queue: ContextStoreOutbox, storage: URL) async -> [String] { queue.log }
    static func discardStorage(_ storage: URL) { try? FileManager.default.removeItem(at: storage) }
    static func waitForPendingWork(in queue: ContextStoreOutbox) async { queue.waitUntilIdle() }
}
