// TicketSyncControllerAdapter.swift — test target (HelpdeskCoreTests)
// Written from Docs/WriteQueue.md only. In the app's test target this file starts with
// `@testable import HelpdeskCore`; here the queue is compiled into the same module.

import WriteQueueContracts
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

enum TicketSyncControllerAdapter: WriteQueueAdapter {
    // Decorrelated jitter capped at 90 s; URLRequest timeout 60 s (the kit's default
    // requestTimeout); key in the Idempotency-Key header. The body is the ticket plus the
    // "client_created_at" stamp the controller adds at submit, declared as an added field;
    // the request body is passed to the kit exactly as the app sends it.
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(90)),
        requestLayout: RequestLayout(addedFields: ["client_created_at"]))

    static let endpoint = URL(string: "https://helpdesk.example.com/api/v2/tickets")!

    /// The database survives a crash; the leases in it carry the token of the process that
    /// took them, so a relaunched controller (a new token) does not wait for them.
    static func makeStorage() throws -> RowStore { RowStore() }

    static func launch(from store: RowStore, environment: QueueEnvironment) async throws -> TicketSyncController {
        let transport = environment.transport
        let clock = environment.clock
        let now = environment.now
        return await MainActor.run {
            TicketSyncController(
                store: store, endpoint: endpoint,
                load: { request in
                    let sent = WriteRequest(
                        idempotencyKey: request.value(forHTTPHeaderField: "Idempotency-Key"),
                        body: request.httpBody ?? Data())
                    let answer = try await transport.send(sent)
                    let response = HTTPURLResponse(
                        url: request.url ?? endpoint, statusCode: answer.statusCode,
                        httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
                    return (answer.body, response)
                },
                now: now, clock: clock)
        }
    }

    static func submit(_ operation: QueueOperation, to controller: TicketSyncController) async throws {
        try await controller.submitTicket(operation.body, reference: operation.id)
    }

    static func runSendingPass(_ controller: TicketSyncController) async throws {
        await controller.sync()
    }

    static func persistedTasks(in store: RowStore) async throws -> [PersistedTask] {
        typealias Column = TicketSyncController.Column
        typealias State = TicketSyncController.State
        return store.read { tx in
            tx.select(from: TicketSyncController.table).map { _, row in
                let state = row[Column.state]?.text
                return PersistedTask(
                    operationID: row[Column.label]?.text ?? "",
                    key: row[Column.key]?.text,
                    body: row[Column.body]?.blob ?? Data(),
                    status: state == State.sent ? .completed
                        : state == State.blocked ? .needsAttention : .pending,
                    attempts: Int(row[Column.attempts]?.integer ?? 0),
                    createdAt: row[Column.createdAt]?.real.map { String($0) },
                    diagnostic: state == State.blocked ? row[Column.lastError]?.text : nil)
            }
        }
    }

    static func diagnostics(of controller: TicketSyncController, storage: RowStore) async -> [String] {
        await controller.log
    }
}
