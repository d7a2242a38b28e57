import WriteQueueContracts
import Foundation


/// Maps the kit's calls onto `UncappedTimerOutbox` the way the app uses it:
/// `init` + `start()` at launch (which flushes in the background, so `sendsOnLaunch: true`),
/// `submit(operation:body:)`, and `flush()` (which joins a running flush) for a sending pass.
/// The backoff is declared with the cap the queue is *meant* to have (`UTRetryPolicy.maximumDelay`,
/// 60 s); the known bug is that the cap is never applied.
public enum UncappedTimerOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(60)),      // UTRetryPolicy.maximumDelay default
        sendsOnLaunch: true,
        sensitiveFields: ["card", "password"])

    public static func makeStorage() throws -> UTInMemoryEntryStore { UTInMemoryEntryStore() }

    public static func launch(from store: UTInMemoryEntryStore, environment: QueueEnvironment) async throws -> UncappedTimerOutbox {
        let transport = environment.transport
        let outbox = UncappedTimerOutbox(
            store: store,
            transport: { key, body in
                try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
            },
            clock: environment.clock,
            now: environment.now)
        outbox.start()
        return outbox
    }

    public static func submit(_ operation: QueueOperation, to outbox: UncappedTimerOutbox) async throws {
        try outbox.submit(operation: operation.id, body: operation.body)
    }

    public static func runSendingPass(_ outbox: UncappedTimerOutbox) async throws {
        await outbox.flush()
    }

    public static func persistedTasks(in store: UTInMemoryEntryStore) async throws -> [PersistedTask] {
        try store.entries().map { entry in
            PersistedTask(
                operationID: entry.operation, key: entry.idempotencyKey, body: entry.payload,
                status: entry.state == .needsAttention ? .needsAttention : .pending,
                attempts: entry.attemptCount,
                createdAt: String(entry.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: entry.lastError)
        }
    }

    public static func diagnostics(of outbox: UncappedTimerOutbox, storage store: UTInMemoryEntryStore) async -> [String] {
        outbox.log + ((try? store.entries()) ?? []).compactMap(\.lastError)
    }

    public static func discardStorage(_ store: UTInMemoryEntryStore) {}
}
