import Foundation
import WriteQueueContracts

/// ``DueTimeOutbox`` started the way many apps start an outbox: every launch runs a sending
/// pass by itself (declared as `sendsOnLaunch`), and the user may submit while it runs.
enum DueTimeOutboxFlushingOnLaunchAdapter: WriteQueueAdapter {
    static var capabilities: QueueCapabilities {
        var capabilities = DueTimeOutboxAdapter.capabilities
        capabilities.sendsOnLaunch = true
        return capabilities
    }

    static func makeStorage() throws -> DueTimeStore { try DueTimeOutboxAdapter.makeStorage() }

    static func launch(from store: DueTimeStore, environment: QueueEnvironment) async throws -> DueTimeOutbox {
        try await DueTimeOutboxAdapter.launch(from: store, environment: environment)
    }

    static func submit(_ operation: QueueOperation, to outbox: DueTimeOutbox) async throws {
        try await DueTimeOutboxAdapter.submit(operation, to: outbox)
    }

    static func runSendingPass(_ outbox: DueTimeOutbox) async throws {
        try await DueTimeOutboxAdapter.runSendingPass(outbox)
    }

    static func persistedTasks(in store: DueTimeStore) async throws -> [PersistedTask] {
        try await DueTimeOutboxAdapter.persistedTasks(in: store)
    }
}
