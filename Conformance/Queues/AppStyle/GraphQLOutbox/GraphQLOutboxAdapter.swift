import Foundation
import WriteQueueContracts

/// Drives the app-style ``GraphQLOutbox`` (a `createItem` mutation envelope built once at
/// submit, the key as `variables.input.clientMutationId`, no `Idempotency-Key` header),
/// unchanged.
public enum GraphQLOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(60)),  // cap's default
        sensitiveFields: GraphQLOutbox.sensitiveFields,
        requestLayout: RequestLayout(
            operationBody: ["variables", "input"], key: .bodyField(["variables", "input", "clientMutationId"])))

    /// The app's GraphQL transport, posting through the kit's; the request has no key header.
    struct Transport: GraphQLOutboxTransport {
        let kit: ControlledTransport
        func post(_ request: GraphQLOutboxHTTPRequest) async throws -> Int {
            try await kit.send(
                WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)
            ).statusCode
        }
    }

    public static func makeStorage() throws -> GraphQLOutboxStore { GraphQLOutboxStore() }

    public static func launch(from store: GraphQLOutboxStore, environment: QueueEnvironment) async throws -> GraphQLOutbox {
        GraphQLOutbox(
            store: store, transport: Transport(kit: environment.transport), clock: environment.clock,
            now: environment.now)
    }

    /// The operation's JSON object is the mutation's input.
    public static func submit(_ operation: QueueOperation, to outbox: GraphQLOutbox) async throws {
        try await outbox.submit(input: operation.body)
    }

    public static func runSendingPass(_ outbox: GraphQLOutbox) async throws { await outbox.flush() }

    /// The body is the stored envelope: the bytes every attempt sends.
    public static func persistedTasks(in store: GraphQLOutboxStore) async throws -> [PersistedTask] {
        store.all().map { mutation in
            PersistedTask(
                operationID: mutation.id.uuidString, key: mutation.clientMutationId, body: mutation.envelope,
                status: mutation.status == .pending ? .pending : .needsAttention, attempts: mutation.attempts,
                createdAt: "\(mutation.createdAt.timeIntervalSince1970)", diagnostic: mutation.diagnostic)
        }
    }

    /// The queue has no log; its diagnostics are the ones it stores on stopped mutations.
    public static func diagnostics(of outbox: GraphQLOutbox, storage: GraphQLOutboxStore) async -> [String] {
        storage.all().compactMap(\.diagnostic)
    }
}
