// From an outside trial (round seven): the adapter its author wrote, names changed only.

import Foundation
import WriteQueueContracts

private let circuitBreakerTerminal: Set<Int> = Set(400..<500).subtracting([408, 409, 429])

enum CircuitBreakerOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429], terminalStatusCodes: circuitBreakerTerminal, exposesDiagnostics: true,
        storageIsOnDisk: true, backoff: .capped(at: .seconds(30)))
    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("circuit-breaker-outbox-\(UUID().uuidString)")
    }
    static func launch(from storage: URL, environment: QueueEnvironment) async throws -> CircuitBreakerOutbox {
        let transport = environment.transport
        return try CircuitBreakerOutbox(directory: storage, now: environment.now, transport: { key, body in
            try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
        })
    }
    static func submit(_ operation: QueueOperation, to queue: CircuitBreakerOutbox) async throws {
        try await queue.enqueue(operation: operation.id, body: operation.body)
    }
    static func runSendingPass(_ queue: CircuitBreakerOutbox) async throws { try await queue.drain() }
    static func persistedTasks(in storage: URL) async throws -> [PersistedTask] {
        try CircuitBreakerOutbox.stored(in: storage).tasks.map {
            PersistedTask(operationID: $0.operation, key: $0.key, body: $0.body,
                          status: $0.halted == nil ? .pending : .needsAttention,
                          attempts: $0.attempts, diagnostic: $0.halted)
        }
    }
    static func diagnostics(of queue: CircuitBreakerOutbox, storage: URL) async -> [String] { await queue.diagnostics }
    static func discardStorage(_ storage: URL) { try? FileManager.default.removeItem(at: storage) }
}
