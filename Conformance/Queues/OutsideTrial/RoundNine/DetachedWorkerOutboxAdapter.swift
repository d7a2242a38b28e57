// From an outside trial (round nine): the adapter its author wrote; the `@Test` function is
// dropped (the matrix runs the adapter).

import Foundation
import WriteQueueContracts

/// Storage is the row file object itself: it survives the kit's crash (the outbox instance is
/// dropped, the `JSONRowFile` is handed to the next launch).
enum DetachedWorkerOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,              // no log of its own: only the stored `blockedReason`
        backoff: .capped(at: .seconds(60)),    // retryCap, jittered 75–100 %
        sensitiveFields: ["accountNumber", "pin"],
        requestTimeout: .seconds(60))          // the lease (90 s) is sized against this

    static func makeStorage() throws -> JSONRowFile {
        JSONRowFile()
    }

    static func launch(from file: JSONRowFile, environment: QueueEnvironment) async throws -> DetachedWorkerOutbox {
        let transport = environment.transport
        return try DetachedWorkerOutbox(
            file: file,
            transport: { headers, body in
                let response = try await transport.send(
                    WriteRequest(idempotencyKey: headers[DetachedWorkerOutbox.keyHeader], body: body))
                return DetachedWorkerOutbox.Reply(status: response.statusCode, body: response.body)
            },
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: DetachedWorkerOutbox) async throws {
        try outbox.submit(reference: operation.id, payload: operation.body)
    }

    static func runSendingPass(_ outbox: DetachedWorkerOutbox) async throws {
        await outbox.syncAndWait()
    }

    static func persistedTasks(in file: JSONRowFile) async throws -> [PersistedTask] {
        try WorkItemStore.decodeRows(in: file).values
            .sorted { $0.createdAt < $1.createdAt }
            .map { row in
                let status: QueueTaskStatus
                switch row.status {
                case .queued: status = .pending
                case .sending: status = .inFlight
                case .sent: status = .completed
                case .blocked: status = .needsAttention
                }
                return PersistedTask(
                    operationID: row.reference,
                    key: row.idempotencyKey,
                    body: row.payload,
                    status: status,
                    attempts: row.attempts,
                    createdAt: String(row.createdAt.timeIntervalSinceReferenceDate),
                    diagnostic: row.blockedReason)
            }
    }

    // diagnostics(of:storage:): default (no log lines); the kit reads the stored diagnostics.
    // discardStorage: default (the row file is only memory).
    // forgetProcessMemory: default. The row file holds no process memory: leases are rows with
    // an until-date, and they expire on the kit's clock.
}
