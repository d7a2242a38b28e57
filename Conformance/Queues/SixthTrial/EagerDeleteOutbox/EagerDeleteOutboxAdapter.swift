import WriteQueueContracts
import Foundation

struct EDKitTransport: EDTransport {
    let environment: QueueEnvironment
    func enqueue(_ request: EDRequest, completion: @escaping @Sendable (Result<Int, Error>) -> Void) throws {
        environment.transport.send(
            WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)
        ) { result in
            completion(result.map(\.statusCode))
        }
    }
}

enum EagerDeleteOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(Int(EagerDeleteOutbox.backoffCap))),
        sensitiveFields: R6Fixture.sensitiveFields)

    static func makeStorage() throws -> EDMemoryStore { EDMemoryStore() }

    static func launch(from storage: EDMemoryStore, environment: QueueEnvironment) async throws
        -> R6Instance<EagerDeleteOutbox>
    {
        let logs = R6LogSink()
        let outbox = EagerDeleteOutbox(store: storage, transport: EDKitTransport(environment: environment),
                                       now: environment.now, log: logs.log)
        return R6Instance(outbox: outbox, logs: logs)
    }

    static func submit(_ operation: QueueOperation, to queue: R6Instance<EagerDeleteOutbox>) async throws {
        try queue.outbox.submit(operation: operation.id, body: operation.body)
    }

    static func runSendingPass(_ queue: R6Instance<EagerDeleteOutbox>) async throws {
        await queue.outbox.sync()
    }

    static func persistedTasks(in storage: EDMemoryStore) async throws -> [PersistedTask] {
        storage.readAll().map {
            PersistedTask(operationID: $0.operation, key: $0.idempotencyKey, body: $0.body,
                          status: $0.failedWithStatus == nil ? .pending : .needsAttention, attempts: $0.tries,
                          diagnostic: $0.failedWithStatus.map { "rejected with HTTP \($0)" })
        }
    }

    static func diagnostics(of queue: R6Instance<EagerDeleteOutbox>, storage: EDMemoryStore) async -> [String] {
        queue.logs.all
    }

    /// Answers are handled on the outbox's serial DispatchQueue: `entries()` is a `queue.sync` barrier.
    static func waitForPendingWork(in queue: R6Instance<EagerDeleteOutbox>) async {
        _ = queue.outbox.entries()
    }
}
