import WriteQueueContracts
import Foundation

struct BOKitTransport: BOTransport {
    let environment: QueueEnvironment
    func send(_ request: BORequest) async throws -> Int {
        try await environment.transport.send(WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body)).statusCode
    }
}

struct BONeverTransport: BOTransport {
    func send(_ request: BORequest) async throws -> Int { fatalError("the throwaway reader never sends") }
}

enum BatchingOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true,
        backoff: .capped(at: .seconds(Int(BatchingOutbox.backoffCap))),
        sensitiveFields: R6Fixture.sensitiveFields)

    static func makeStorage() throws -> URL { try R6Fixture.temporaryDirectory("batching") }

    static func launch(from storage: URL, environment: QueueEnvironment) async throws -> R6Instance<BatchingOutbox> {
        let logs = R6LogSink()
        let outbox = try BatchingOutbox(directory: storage, transport: BOKitTransport(environment: environment),
                                        now: environment.now, log: logs.log)
        return R6Instance(outbox: outbox, logs: logs)
    }

    static func submit(_ operation: QueueOperation, to queue: R6Instance<BatchingOutbox>) async throws {
        try await queue.outbox.submit(operation: operation.id, jsonBody: operation.body)
    }

    static func runSendingPass(_ queue: R6Instance<BatchingOutbox>) async throws {
        await queue.outbox.drain()
    }

    static func persistedTasks(in storage: URL) async throws -> [PersistedTask] {
        let reader = try BatchingOutbox(directory: storage, transport: BONeverTransport(), log: { _ in })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let tasks = await reader.pending + reader.failed
        return try tasks.map {
            PersistedTask(operationID: $0.operation, key: $0.idempotencyKey, body: try encoder.encode($0.body),
                          status: $0.status == .pending ? .pending : .needsAttention, attempts: $0.attempts,
                          diagnostic: $0.failureReason)
        }
    }

    static func diagnostics(of queue: R6Instance<BatchingOutbox>, storage: URL) async -> [String] { queue.logs.all }

    static func discardStorage(_ storage: URL) { try? FileManager.default.removeItem(at: storage) }
}
