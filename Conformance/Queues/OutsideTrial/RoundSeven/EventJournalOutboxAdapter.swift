// From an outside trial (round seven): the adapter its author wrote, names changed only.

import Foundation
import WriteQueueContracts

private let eventJournalTerminal: Set<Int> = Set(400..<500).subtracting([408, 409, 429])

enum EventJournalOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429], terminalStatusCodes: eventJournalTerminal, exposesDiagnostics: true,
        storageIsOnDisk: true, backoff: .capped(at: .seconds(32)))
    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("event-journal-outbox-\(UUID().uuidString)")
    }
    static func launch(from storage: URL, environment: QueueEnvironment) async throws -> EventJournalOutbox {
        let transport = environment.transport
        return try EventJournalOutbox(directory: storage, now: environment.now, post: { key, body in
            try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
        })
    }
    static func submit(_ operation: QueueOperation, to queue: EventJournalOutbox) async throws {
        try await queue.enqueue(label: operation.id, body: operation.body)
    }
    static func runSendingPass(_ queue: EventJournalOutbox) async throws { try await queue.flush() }
    static func persistedTasks(in storage: URL) async throws -> [PersistedTask] {
        try EventJournalOutbox.rebuild(from: storage.appendingPathComponent(EventJournalOutbox.journalName)).live.map {
            PersistedTask(operationID: $0.label, key: $0.key, body: $0.body,
                          status: $0.stopReason == nil ? .pending : .needsAttention,
                          attempts: $0.attempts, diagnostic: $0.stopReason)
        }
    }
    static func diagnostics(of queue: EventJournalOutbox, storage: URL) async -> [String] { await queue.log }
    static func discardStorage(_ storage: URL) { try? FileManager.default.removeItem(at: storage) }
}
