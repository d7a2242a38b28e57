import Foundation
import WriteQueueContracts

/// The adapter of ``MinimalQueue``: the settings come from ``MinimalQueueAdapter/settings``, a
/// task-local, so one adapter type runs every combination.
///
/// ```swift
/// await MinimalQueueAdapter.$settings.withValue(settings) {
///     await contract.run(against: MinimalQueueAdapter.self)
/// }
/// ```
public enum MinimalQueueAdapter: WriteQueueAdapter {
    /// The settings of the queue the next `makeStorage()` makes.
    @TaskLocal public static var settings = MinimalQueueSettings()

    public static var capabilities: QueueCapabilities {
        QueueCapabilities(
            exposesDiagnostics: true, backoff: .capped(at: MinimalQueue.cap),
            requestTimeout: MinimalQueue.requestTimeout)
    }

    public static func makeStorage() throws -> MinimalQueueStore {
        MinimalQueueStore(settings: settings)
    }

    public static func launch(from store: MinimalQueueStore, environment: QueueEnvironment) async throws -> MinimalQueue {
        MinimalQueue(store: store, environment: environment)
    }

    public static func submit(_ operation: QueueOperation, to queue: MinimalQueue) async throws {
        await queue.submit(id: operation.id, body: operation.body)
    }

    public static func runSendingPass(_ queue: MinimalQueue) async throws {
        await queue.runPass()
    }

    public static func persistedTasks(in store: MinimalQueueStore) async throws -> [PersistedTask] {
        store.all.map { row in
            PersistedTask(
                operationID: row.operationID, key: row.key,
                body: row.body.isEmpty ? ((try? JSONSerialization.data(withJSONObject: row.fields)) ?? Data()) : row.body,
                status: row.stoppedBecause == nil ? .pending : .needsAttention, attempts: row.attempts,
                createdAt: "\(row.createdAt.timeIntervalSinceReferenceDate)", diagnostic: row.stoppedBecause)
        }
    }

    public static func diagnostics(of queue: MinimalQueue, storage: MinimalQueueStore) async -> [String] {
        await queue.diagnostics()
    }

    /// The transport's dispatch queue, as `Docs/WriteQueue.md` asks of a queue that sends from
    /// a `DispatchQueue` of its own. Without it the kit can take a concurrent pass as settled
    /// while a send still waits there, and move the clock before that request starts: a storage
    /// lease stamped before the clock moved then expired while its request was in flight (Q7,
    /// once in 128 combinations, when Q7 started its passes together five times).
    public static func waitForPendingWork(in queue: MinimalQueue) async {
        queue.waitForTransportQueue()
    }
}
