import WriteQueueContracts
import Foundation

/// Storage is the table object (the app's database): it survives the kit's crash, and its
/// leases are durable rows that expire, so `forgetProcessMemory` is left at its default.
enum AsyncStreamSyncWorkerAdapter: WriteQueueAdapter {
    typealias Storage = AsyncStreamSyncWorkerTable
    typealias Queue = AsyncStreamSyncWorker

    static let capabilities = QueueCapabilities(
        backoff: .capped(at: .seconds(AsyncStreamSyncWorkerPolicy.backoffCap)),
        sendsOnLaunch: true,   // `start()` wakes the loop once at launch
        requestTimeout: .seconds(AsyncStreamSyncWorkerPolicy.requestTimeout))

    static func makeStorage() throws -> AsyncStreamSyncWorkerTable {
        AsyncStreamSyncWorkerTable()
    }

    static func launch(from storage: AsyncStreamSyncWorkerTable, environment: QueueEnvironment) async throws
        -> AsyncStreamSyncWorker
    {
        let transport = environment.transport
        let clock = environment.clock
        let worker = AsyncStreamSyncWorker(
            table: storage,
            post: { key, payload in
                try await transport.send(WriteRequest(idempotencyKey: key, body: payload)).statusCode
            },
            now: environment.now,
            waitUntil: { deadline in
                try await clock.sleep(until: clock.instant(at: deadline), tolerance: nil)
            })
        await worker.start()
        return worker
    }

    static func submit(_ operation: QueueOperation, to queue: AsyncStreamSyncWorker) async throws {
        await queue.submit(label: operation.id, payload: operation.body)
    }

    static func runSendingPass(_ queue: AsyncStreamSyncWorker) async throws {
        await queue.syncNow()
    }

    static func persistedTasks(in storage: AsyncStreamSyncWorkerTable) async throws -> [PersistedTask] {
        storage.selectAll().map { row in
            PersistedTask(
                operationID: row.label, key: row.key, body: row.payload, status: status(of: row.state),
                attempts: row.attempts, createdAt: String(row.createdAt),
                diagnostic: (row.state == .failed || row.state == .conflict) ? row.lastError : nil)
        }
    }

    /// The worker loop holds no actor time between its sends, but any call of the actor is a
    /// barrier behind work queued on it, which is what the kit asks for.
    static func waitForPendingWork(in queue: AsyncStreamSyncWorker) async {
        await queue.barrier()
    }

    private static func status(of state: AsyncStreamSyncWorkerTable.State) -> QueueTaskStatus {
        switch state {
        case .pending: return .pending
        case .sending: return .inFlight
        case .failed, .conflict: return .needsAttention
        }
    }
}
