import WriteQueueContracts
import Foundation

/// The app's `GraphQLNetworkClient`, backed by the kit's transport instead of URLSession.
struct KitGraphQLClient: GraphQLNetworkClient {
    let transport: ControlledTransport

    func perform(
        _ request: GraphQLHTTPRequest,
        completion: @escaping @Sendable (Result<GraphQLHTTPResponse, any Error>) -> Void
    ) {
        let write = WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)
        transport.send(write) { result in
            completion(result.map { GraphQLHTTPResponse(statusCode: $0.statusCode, body: $0.body) })
        }
    }
}

enum GraphQLMutationOutboxAdapter: WriteQueueAdapter {
    // The operation's body travels as `variables.input`; the key is `variables.clientMutationId`
    // (the same value also goes out as the Idempotency-Key header).
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(30)),
        sensitiveFields: ["card", "paymentToken"],
        requestLayout: RequestLayout(
            operationBody: ["variables", "input"],
            key: .bodyField(["variables", "clientMutationId"])))

    static func makeStorage() throws -> MutationDatabase {
        MutationDatabase()
    }

    static func launch(
        from storage: MutationDatabase, environment: QueueEnvironment
    ) async throws -> GraphQLMutationOutbox {
        await GraphQLMutationOutbox(
            database: storage,
            client: KitGraphQLClient(transport: environment.transport),
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to queue: GraphQLMutationOutbox) async throws {
        let mutationName = operation.entity == nil ? "createRecord" : "updateRecord"
        try await queue.enqueue(label: operation.id, mutationName: mutationName, body: operation.body)
    }

    static func runSendingPass(_ queue: GraphQLMutationOutbox) async throws {
        await queue.syncPendingMutations()
    }

    static func persistedTasks(in storage: MutationDatabase) async throws -> [PersistedTask] {
        try storage.allRows().map { row in
            PersistedTask(
                operationID: row.label,
                key: row.clientMutationID,
                // The stored body as the queue will send it: the envelope, read through the layout.
                body: try GraphQLMutationOutbox.envelope(for: row),
                status: row.state == .pending ? .pending : .needsAttention,
                attempts: row.attempts,
                createdAt: String(row.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: row.failureReason)
        }
    }

    static func diagnostics(of queue: GraphQLMutationOutbox, storage: MutationDatabase) async -> [String] {
        await queue.diagnosticLines()
    }
}
