import Foundation
import WriteQueueContracts

/// The shared parts of the failure tests' adapters: an in-memory list, nothing persisted.
protocol ListQueueAdapter: WriteQueueAdapter where Storage == NSLockBox, Queue == ListQueue {}

extension ListQueueAdapter {
    static var capabilities: QueueCapabilities { QueueCapabilities() }
    static func makeStorage() throws -> NSLockBox { NSLockBox() }
    static func launch(from storage: NSLockBox, environment: QueueEnvironment) async throws -> ListQueue {
        ListQueue(transport: environment.transport)
    }
    static func submit(_ operation: QueueOperation, to queue: ListQueue) async throws { queue.add(operation.body) }
    static func runSendingPass(_ queue: ListQueue) async throws {}
    static func persistedTasks(in storage: NSLockBox) async throws -> [PersistedTask] { [] }
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
