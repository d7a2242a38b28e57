import Foundation
import WriteQueueContracts

/// The storage of a queue that persists nothing.
struct NoStorage: Sendable {}

/// The shared parts of the failure tests' adapters: an in-memory list, nothing persisted.
protocol ListQueueAdapter: WriteQueueAdapter where Storage == NoStorage, Queue == ListQueue {}

extension ListQueueAdapter {
    static var capabilities: QueueCapabilities { QueueCapabilities() }
    static func makeStorage() throws -> NoStorage { NoStorage() }
    static func launch(from storage: NoStorage, environment: QueueEnvironment) async throws -> ListQueue {
        ListQueue(transport: environment.transport)
    }
    static func submit(_ operation: QueueOperation, to queue: ListQueue) async throws { queue.add(operation.body) }
    static func runSendingPass(_ queue: ListQueue) async throws {}
    static func persistedTasks(in storage: NoStorage) async throws -> [PersistedTask] { [] }
}

/// Declares nothing optional: Q8 and Q10 are not applicable.
enum MinimalCapabilitiesAdapter: ListQueueAdapter {}

/// Rejects every submit.
enum ThrowingSubmitAdapter: ListQueueAdapter {
    struct Rejected: Error {}
    static func submit(_ operation: QueueOperation, to queue: ListQueue) async throws { throw Rejected() }
}

/// A pass that waits on something nobody resumes.
enum HangingPassAdapter: ListQueueAdapter {
    static func runSendingPass(_ queue: ListQueue) async throws {
        for await _ in queue.stall.stream {}
    }
}
