import WriteQueueContracts
import Foundation

enum MutationJournalAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true,
        backoff: .capped(at: .seconds(120)))

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> MutationJournal {
        let transport = environment.transport
        return try MutationJournal(directory: directory, post: { key, payload in
            try await transport.send(WriteRequest(idempotencyKey: key, body: payload)).statusCode
        }, now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to journal: MutationJournal) async throws {
        try await journal.enqueue(label: operation.id, payload: operation.body)
    }

    static func runSendingPass(_ journal: MutationJournal) async throws {
        await journal.sync()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try MutationJournal.rows(in: directory).map { _, row in
            PersistedTask(
                operationID: row.label, key: row.idempotencyKey, body: row.payload,
                status: row.state == .parked ? .needsAttention : .pending,
                attempts: row.attempts,
                createdAt: String(row.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: row.state == .parked ? row.lastError : nil)
        }
    }

    static func diagnostics(of journal: MutationJournal, storage: URL) async -> [String] {
        await journal.log
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
