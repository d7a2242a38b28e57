import WriteQueueContracts
import Foundation


/// Maps the kit's calls onto `TickerOutbox` the way the app uses it:
/// `init` + `start()` at launch, `submit(operation:body:)`, `syncNow()` for a sending pass.
/// The storage is the injected `TOMemoryStore` (it survives the kit's "crash", which drops
/// only the outbox instance). The kit's operation ID ("op-1") is passed as the operation name,
/// which the outbox persists with the row.
public enum TickerOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(32)),      // TickerOutbox.Settings.maxBackoff default
        sensitiveFields: ["card", "password"])

    public static func makeStorage() throws -> TOMemoryStore { TOMemoryStore() }

    public static func launch(from store: TOMemoryStore, environment: QueueEnvironment) async throws -> TickerOutbox {
        let transport = environment.transport
        let outbox = TickerOutbox(
            store: store,
            transport: { key, body in
                try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
            },
            clock: environment.clock,
            now: environment.now)
        await outbox.start()   // the app calls start() once at launch: the 15 s tick loop
        return outbox
    }

    public static func submit(_ operation: QueueOperation, to outbox: TickerOutbox) async throws {
        try await outbox.submit(operation: operation.id, body: operation.body)
    }

    public static func runSendingPass(_ outbox: TickerOutbox) async throws {
        await outbox.syncNow()
    }

    public static func persistedTasks(in store: TOMemoryStore) async throws -> [PersistedTask] {
        try store.loadAll().map { row in
            PersistedTask(
                operationID: row.operation, key: row.idempotencyKey, body: row.body,
                status: row.status == .needsAttention ? .needsAttention : .pending,
                attempts: row.attempts,
                createdAt: String(row.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: row.diagnostic)
        }
    }

    public static func diagnostics(of outbox: TickerOutbox, storage store: TOMemoryStore) async -> [String] {
        let rowDiagnostics = ((try? store.loadAll()) ?? []).compactMap(\.diagnostic)
        return await outbox.log + rowDiagnostics
    }

    public static func discardStorage(_ store: TOMemoryStore) {}
}
