import WriteQueueContracts
import Foundation

/// Adapter: `OrderSubmissionQueue` (a final class with an NSLock) over `OrderStore`, the in-memory
/// store object that stands for the app's database and survives a crash.
enum OrderSubmissionQueueAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(60)),   // OrderBackoff.maximum
        sensitiveFields: ["card"]
    )

    static func makeStorage() throws -> OrderStore { OrderStore() }

    static func launch(from store: OrderStore, environment: QueueEnvironment) async throws -> OrderSubmissionQueue {
        let transport = environment.transport
        return OrderSubmissionQueue(store: store, now: environment.now) { request in
            let response = try await transport.send(
                WriteRequest(idempotencyKey: request.idempotencyKey, body: request.payload))
            return OrderHTTPResponse(statusCode: response.statusCode)
        }
    }

    static func submit(_ operation: QueueOperation, to queue: OrderSubmissionQueue) async throws {
        queue.place(reference: operation.id, payload: operation.body)
    }

    static func runSendingPass(_ queue: OrderSubmissionQueue) async throws {
        await queue.sync()
    }

    static func persistedTasks(in store: OrderStore) async throws -> [PersistedTask] {
        store.allOrders().map { order in
            let status: QueueTaskStatus
            switch order.status {
            case .pending: status = .pending
            case .submitted: status = .completed
            case .failed: status = .needsAttention
            }
            return PersistedTask(
                operationID: order.reference,
                key: order.idempotencyKey,
                body: order.payload,
                status: status,
                attempts: order.attempts,
                createdAt: String(order.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: order.failureReason)
        }
    }

    static func diagnostics(of queue: OrderSubmissionQueue, storage: OrderStore) async -> [String] {
        queue.log
    }

    // The store keeps no process memory: send claims live in each OrderSubmissionQueue instance,
    // so the default forgetProcessMemory(in:) (nothing to forget) is right.
}
