import WriteQueueContracts
import Foundation

/// Kit adapter for `ScanUploadQueue` (a SQLite-like row store with a TEMP claims table, a
/// task-group sender, due times in the rows).
///
/// The storage is the database object: its table is durable, its TEMP claims are process
/// memory, cleared at every crash by `forgetProcessMemory(in:)`.
///
/// Registered like the quick start's queue:
/// `@Test(arguments: WriteQueueContract.all(for: ScanUploadQueueAdapter.self))`
/// `func scanUploadQueueConforms(_ c: WriteQueueContract) async { await c.check(ScanUploadQueueAdapter.self) }`
enum ScanUploadQueueAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        backoff: .capped(at: .seconds(60)))  // Policy(): base 2 s, cap 60 s

    struct KitScanAPI: ScanUploadAPI {
        let transport: ControlledTransport

        func upload(idempotencyKey: String, payload: Data) async throws -> Int {
            try await transport.send(WriteRequest(idempotencyKey: idempotencyKey, body: payload)).statusCode
        }
    }

    static func makeStorage() throws -> ScanOutboxDatabase {
        ScanOutboxDatabase()
    }

    static func launch(from database: ScanOutboxDatabase, environment: QueueEnvironment) async throws -> ScanUploadQueue {
        ScanUploadQueue(database: database, api: KitScanAPI(transport: environment.transport), now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to queue: ScanUploadQueue) async throws {
        await queue.recordScan(label: operation.id, payload: operation.body)
    }

    static func runSendingPass(_ queue: ScanUploadQueue) async throws {
        await queue.sync()
    }

    static func persistedTasks(in database: ScanOutboxDatabase) async throws -> [PersistedTask] {
        await database.allRows().map { row in
            let status: QueueTaskStatus = switch row.status {
            case .queued: .pending
            case .needsAttention: .needsAttention
            case .done: .completed
            }
            return PersistedTask(
                operationID: row.label,
                key: row.idempotencyKey,
                body: row.payload,
                status: status,
                attempts: row.attempts,
                createdAt: String(row.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: row.status == .needsAttention ? row.lastError : nil)
        }
    }

    static func forgetProcessMemory(in database: ScanOutboxDatabase) async {
        await database.dropTemporaryTables()
    }
}
