import WriteQueueContracts
import Foundation

struct FKKitTransport: FKTransport {
    let environment: QueueEnvironment
    func send(_ request: FKRequest) async throws -> Int {
        try await environment.transport.send(
            WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)).statusCode
    }
}

struct FKNeverTransport: FKTransport {
    func send(_ request: FKRequest) async throws -> Int { fatalError("the throwaway reader never sends") }
}

enum FreshKeyRetryOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(Int(FreshKeyRetryOutbox.backoffCap))),
        sensitiveFields: R6Fixture.sensitiveFields)

    static func makeStorage() throws -> FKMemoryStorage { FKMemoryStorage() }

    static func launch(from storage: FKMemoryStorage, environment: QueueEnvironment) async throws
        -> R6Instance<FreshKeyRetryOutbox>
    {
        let logs = R6LogSink()
        let outbox = try FreshKeyRetryOutbox(storage: storage, transport: FKKitTransport(environment: environment),
                                             now: environment.now, log: logs.log)
        return R6Instance(outbox: outbox, logs: logs)
    }

    static func submit(_ operation: QueueOperation, to queue: R6Instance<FreshKeyRetryOutbox>) async throws {
        try await queue.outbox.submit(operation: operation.id, body: operation.body)
    }

    static func runSendingPass(_ queue: R6Instance<FreshKeyRetryOutbox>) async throws {
        await queue.outbox.flush()
    }

    static func persistedTasks(in storage: FKMemoryStorage) async throws -> [PersistedTask] {
        try storage.load().map {
            PersistedTask(operationID: $0.operation, key: $0.idempotencyKey, body: $0.body,
                          status: $0.state == .queued ? .pending : .needsAttention, attempts: $0.attempt,
                          diagnostic: $0.failureReason)
        }
    }

    static func diagnostics(of queue: R6Instance<FreshKeyRetryOutbox>, storage: FKMemoryStorage) async -> [String] {
        queue.logs.all
    }
}
