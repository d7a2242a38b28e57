import Foundation
import WriteQueueContracts

/// The kit's transport seen through the app's payments client protocol.
struct KitOrderAPI: OrderAPI {
    let transport: ControlledTransport

    func placeOrder(_ body: Data, idempotencyKey: String) async throws -> Int {
        try await transport.send(WriteRequest(idempotencyKey: idempotencyKey, body: body)).statusCode
    }
}

enum CheckoutOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(60)),
        sensitiveFields: ["cardNumber", "cvv"])

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("CheckoutOutbox-\(UUID().uuidString)", isDirectory: true)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> CheckoutOutbox<ManualClock> {
        try CheckoutOutbox(
            directory: directory, api: KitOrderAPI(transport: environment.transport),
            clock: environment.clock, now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: CheckoutOutbox<ManualClock>) async throws {
        try await outbox.place(operation.body, label: operation.id)
    }

    static func runSendingPass(_ outbox: CheckoutOutbox<ManualClock>) async throws {
        await outbox.sync()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try CheckoutOutbox<ManualClock>.storedOrders(in: directory).map { order in
            PersistedTask(
                operationID: order.label, key: order.idempotencyKey, body: order.body,
                status: order.state == .needsAttention ? .needsAttention : .pending,
                attempts: order.attempts,
                createdAt: String(order.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: order.problem)
        }
    }

    static func diagnostics(of outbox: CheckoutOutbox<ManualClock>, storage: URL) async -> [String] {
        await outbox.diagnostics
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
