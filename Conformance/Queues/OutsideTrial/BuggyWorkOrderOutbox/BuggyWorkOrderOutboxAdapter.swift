// From an outside trial (trial 36): the adapter its author wrote for the buggy copy, names
// changed only.

import Foundation
import WriteQueueContracts

enum BuggyWorkOrderOutboxAdapter: WriteQueueAdapter {
    static let capabilities = WorkOrderOutboxKitSettings.capabilities

    static func makeStorage() throws -> URL { try WorkOrderOutboxKitSettings.makeStorage() }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> BuggyWorkOrderOutbox {
        let clock = environment.clock
        let random = WorkOrderSeededRandom(seed: UInt64(environment.launch))
        return try BuggyWorkOrderOutbox(
            fileSystem: WorkOrderDirectoryOutboxFileSystem(directory: directory),
            transport: WorkOrderOutboxKitSettings.transport(environment, header: BuggyWorkOrderOutbox.changeIDHeader),
            now: environment.now,
            sleep: { try await clock.sleep(for: $0) },
            random: { random.nextUnit() })
    }

    static func submit(_ operation: QueueOperation, to outbox: BuggyWorkOrderOutbox) async throws {
        let (payload, workOrderID, type) = try WorkOrderOutboxKitSettings.payload(of: operation)
        try await outbox.enqueue(payload, workOrderID: workOrderID, changeType: type, reference: operation.id)
    }

    static func runSendingPass(_ outbox: BuggyWorkOrderOutbox) async throws { await outbox.flush() }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        WorkOrderOutboxKitSettings.persisted(
            try BuggyWorkOrderOutbox.storedChanges(in: WorkOrderDirectoryOutboxFileSystem(directory: directory)))
    }

    static func diagnostics(of outbox: BuggyWorkOrderOutbox, storage: URL) async -> [String] { await outbox.recentLog }

    static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
}
