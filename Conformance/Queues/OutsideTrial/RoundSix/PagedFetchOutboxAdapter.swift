// From an outside trial (round six): the adapter its author wrote, names changed only.

import Foundation
import WriteQueueContracts

private let pagedFetchTerminal: Set<Int> = Set(400..<500).subtracting([408, 409, 429])

enum PagedFetchOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429], terminalStatusCodes: pagedFetchTerminal, exposesDiagnostics: true,
        backoff: .capped(at: .seconds(10)))
    static func makeStorage() throws -> PagedFetchRowTable { PagedFetchRowTable() }
    static func launch(from storage: PagedFetchRowTable, environment: QueueEnvironment) async throws -> PagedFetchOutbox {
        let transport = environment.transport
        return PagedFetchOutbox(table: storage, transport: { key, payload in
            try await transport.send(WriteRequest(idempotencyKey: key, body: payload)).statusCode
        }, now: environment.now)
    }
    static func submit(_ operation: QueueOperation, to queue: PagedFetchOutbox) async throws {
        await queue.enqueue(op: operation.id, payload: operation.body)
    }
    static func runSendingPass(_ queue: PagedFetchOutbox) async throws { await queue.sync() }
    static func persistedTasks(in storage: PagedFetchRowTable) async throws -> [PersistedTask] {
        storage.fetch(where: { _ in true }).map { r in
            let status: QueueTaskStatus = switch r.status {
            case .queued: .pending
            case .sent: .completed
            case .stopped: .needsAttention
            }
            return PersistedTask(operationID: r.op, key: r.idempotencyKey, body: r.payload, status: status,
                                 attempts: r.attemptCount, diagnostic: r.stopReason)
        }
    }
    static func diagnostics(of queue: PagedFetchOutbox, storage: PagedFetchRowTable) async -> [String] { await queue.diagnostics }
}
