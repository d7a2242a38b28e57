import WriteQueueContracts
import Foundation


/// Maps the kit's calls onto `RetryTimerOutbox` the way the app uses it:
/// `init` + `start()` at launch (which drains in the background, so `sendsOnLaunch: true`),
/// `submit(operation:body:)`, and `flush()` (which joins a running drain) for a sending pass.
public enum RetryTimerOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(60)),      // RetryTimerOutbox.Settings.maxBackoff default
        sendsOnLaunch: true,
        sensitiveFields: ["card", "password"])

    public static func makeStorage() throws -> RTMemoryStore { RTMemoryStore() }

    public static func launch(from store: RTMemoryStore, environment: QueueEnvironment) async throws -> RetryTimerOutbox {
        let transport = environment.transport
        let outbox = RetryTimerOutbox(
            store: store,
            transport: { key, body in
                try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
            },
            clock: environment.clock,
            now: environment.now)
        outbox.start()
        return outbox
    }

    public static func submit(_ operation: QueueOperation, to outbox: RetryTimerOutbox) async throws {
        try outbox.submit(operation: operation.id, body: operation.body)
    }

    public static func runSendingPass(_ outbox: RetryTimerOutbox) async throws {
        await outbox.flush()
    }

    public static func persistedTasks(in store: RTMemoryStore) async throws -> [PersistedTask] {
        try store.all().map { task in
            PersistedTask(
                operationID: task.operation, key: task.idempotencyKey, body: task.body,
                status: task.status == .needsAttention ? .needsAttention : .pending,
                attempts: task.attempts,
                createdAt: String(task.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: task.diagnostic)
        }
    }

    public static func diagnostics(of outbox: RetryTimerOutbox, storage store: RTMemoryStore) async -> [String] {
        outbox.log + ((try? store.all()) ?? []).compactMap(\.diagnostic)
    }

    public static func discardStorage(_ store: RTMemoryStore) {}
}
