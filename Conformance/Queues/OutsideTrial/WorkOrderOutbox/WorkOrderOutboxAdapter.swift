// From an outside trial (trial 36): the adapters their author wrote (shared settings and the
// correct outbox's), names changed only.

import Foundation
import WriteQueueContracts

/// Shared settings for both outbox types.
enum WorkOrderOutboxKitSettings {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(60)),
        sensitiveFields: ["access_code", "customer_phone"],
        requestLayout: RequestLayout(operationBody: ["payload"]))

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("trial36-outbox")
            .appendingPathComponent(UUID().uuidString)
    }

    static func transport(_ environment: QueueEnvironment, header: String) -> WorkOrderOutboxTransport {
        let transport = environment.transport
        return { request in
            let response = try await transport.send(
                WriteRequest(idempotencyKey: request.headers[header], body: request.body))
            return WorkOrderOutboxResponse(statusCode: response.statusCode, body: response.body)
        }
    }

    static func payload(of operation: QueueOperation) throws -> (WorkOrderJSONValue, String, WorkOrderChangeType) {
        let payload = try JSONDecoder().decode(WorkOrderJSONValue.self, from: operation.body)
        switch operation.kind {
        case .create: return (payload, "wo-\(operation.id)", .note)
        case .update(let entity): return (payload, entity, .statusChange)
        }
    }

    static func persisted(_ summaries: [WorkOrderOutboxChangeSummary]) -> [PersistedTask] {
        summaries.map {
            PersistedTask(
                operationID: $0.reference, key: $0.changeID.uuidString, body: $0.requestBody,
                status: $0.state == .pending ? .pending : .needsAttention, attempts: $0.attempts,
                createdAt: String($0.createdAt.timeIntervalSinceReferenceDate), diagnostic: $0.problem)
        }
    }
}

enum WorkOrderOutboxAdapter: WriteQueueAdapter {
    static let capabilities = WorkOrderOutboxKitSettings.capabilities

    static func makeStorage() throws -> URL { try WorkOrderOutboxKitSettings.makeStorage() }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> WorkOrderOutbox {
        let clock = environment.clock
        let random = WorkOrderSeededRandom(seed: UInt64(environment.launch))
        return try WorkOrderOutbox(
            fileSystem: WorkOrderDirectoryOutboxFileSystem(directory: directory),
            transport: WorkOrderOutboxKitSettings.transport(environment, header: WorkOrderOutbox.changeIDHeader),
            now: environment.now,
            sleep: { try await clock.sleep(for: $0) },
            random: { random.nextUnit() })
    }

    static func submit(_ operation: QueueOperation, to outbox: WorkOrderOutbox) async throws {
        let (payload, workOrderID, type) = try WorkOrderOutboxKitSettings.payload(of: operation)
        try await outbox.enqueue(payload, workOrderID: workOrderID, changeType: type, reference: operation.id)
    }

    static func runSendingPass(_ outbox: WorkOrderOutbox) async throws { await outbox.flush() }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        WorkOrderOutboxKitSettings.persisted(
            try WorkOrderOutbox.storedChanges(in: WorkOrderDirectoryOutboxFileSystem(directory: directory)))
    }

    static func diagnostics(of outbox: WorkOrderOutbox, storage: URL) async -> [String] { await outbox.recentLog }

    static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
}
