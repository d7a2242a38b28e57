import WriteQueueContracts
import Foundation

enum GiftCardRedemptionsAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(RedemptionCoordinator.maximumDelay)),
        sensitiveFields: LogRedaction.sensitiveFields)

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> RedemptionCoordinator {
        let transport = environment.transport
        return try RedemptionCoordinator(
            directory: directory,
            post: { key, body in
                let response = try await transport.send(WriteRequest(idempotencyKey: key, body: body))
                return (response.statusCode, response.body)
            },
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to coordinator: RedemptionCoordinator) async throws {
        try await coordinator.enqueue(reference: operation.id, body: operation.body)
    }

    static func runSendingPass(_ coordinator: RedemptionCoordinator) async throws {
        await coordinator.syncAll()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try RedemptionStore(directory: directory).load().map { redemption in
            PersistedTask(
                operationID: redemption.reference, key: redemption.idempotencyKey, body: redemption.body,
                status: redemption.stoppedReason == nil ? .pending : .needsAttention,
                attempts: redemption.attempts,
                createdAt: String(redemption.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: redemption.stoppedReason)
        }
    }

    static func diagnostics(of coordinator: RedemptionCoordinator, storage: URL) async -> [String] {
        await coordinator.log
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
