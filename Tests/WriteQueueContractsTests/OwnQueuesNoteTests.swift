import BundledImplementations
import ConformanceKit
import Testing
import WriteQueueContracts

/// A failure of a queue whose every request came from machinery of its own (no trigger's tag
/// reached the transport) says, when its adapter has no `waitForPendingWork`, that the kit
/// could not see that machinery and the verdict may be the adapter's; with a barrier it does
/// not. Both queues here are `MinimalQueue` sending from its serial `DispatchQueue`, with a
/// backoff cap declared below the queue's own (32 s), so Q8 fails for a reason of its own.
@Suite struct OwnQueuesNoteTests {
    static let dispatchQueueSettings = MinimalQueueSettings(transport: .completionHandlerOnDispatchQueue)
    static let note = "does not implement waitForPendingWork(in:)"

    @Test func aFailureWithoutTheBarrierSaysTheVerdictMayBeTheAdapters() async throws {
        let report = await MinimalQueueAdapter.$settings.withValue(Self.dispatchQueueSettings) {
            await WriteQueueContract.contract("Q8")?.run(against: BarrierlessCapDeclaredTooLow.self)
        }
        let violation = try #require(report?.outcome.violations.first, "\(report?.fullText ?? "no Q8")")
        #expect(violation.hint?.contains(Self.note) == true, "\(violation)")
    }

    @Test func aFailureWithTheBarrierSaysNothingOfIt() async throws {
        let report = await MinimalQueueAdapter.$settings.withValue(Self.dispatchQueueSettings) {
            await WriteQueueContract.contract("Q8")?.run(against: CapDeclaredTooLow.self)
        }
        let violation = try #require(report?.outcome.violations.first, "\(report?.fullText ?? "no Q8")")
        #expect(violation.hint?.contains(Self.note) == false, "\(violation)")
    }
}

/// `MinimalQueueAdapter` declaring a 1 s backoff cap, without `waitForPendingWork`.
private enum BarrierlessCapDeclaredTooLow: WriteQueueAdapter {
    static var capabilities: QueueCapabilities {
        QueueCapabilities(exposesDiagnostics: true, backoff: .capped(at: .seconds(1)), requestTimeout: .seconds(30))
    }
    static func makeStorage() throws -> MinimalQueueStore { try MinimalQueueAdapter.makeStorage() }
    static func launch(from store: MinimalQueueStore, environment: QueueEnvironment) async throws -> MinimalQueue {
        try await MinimalQueueAdapter.launch(from: store, environment: environment)
    }
    static func submit(_ operation: QueueOperation, to queue: MinimalQueue) async throws {
        try await MinimalQueueAdapter.submit(operation, to: queue)
    }
    static func runSendingPass(_ queue: MinimalQueue) async throws { try await MinimalQueueAdapter.runSendingPass(queue) }
    static func persistedTasks(in store: MinimalQueueStore) async throws -> [PersistedTask] {
        try await MinimalQueueAdapter.persistedTasks(in: store)
    }
    static func diagnostics(of queue: MinimalQueue, storage: MinimalQueueStore) async -> [String] {
        await MinimalQueueAdapter.diagnostics(of: queue, storage: storage)
    }
}

/// The same, with the barrier `MinimalQueueAdapter` has.
private enum CapDeclaredTooLow: WriteQueueAdapter {
    static var capabilities: QueueCapabilities { BarrierlessCapDeclaredTooLow.capabilities }
    static func makeStorage() throws -> MinimalQueueStore { try MinimalQueueAdapter.makeStorage() }
    static func launch(from store: MinimalQueueStore, environment: QueueEnvironment) async throws -> MinimalQueue {
        try await MinimalQueueAdapter.launch(from: store, environment: environment)
    }
    static func submit(_ operation: QueueOperation, to queue: MinimalQueue) async throws {
        try await MinimalQueueAdapter.submit(operation, to: queue)
    }
    static func runSendingPass(_ queue: MinimalQueue) async throws { try await MinimalQueueAdapter.runSendingPass(queue) }
    static func persistedTasks(in store: MinimalQueueStore) async throws -> [PersistedTask] {
        try await MinimalQueueAdapter.persistedTasks(in: store)
    }
    static func diagnostics(of queue: MinimalQueue, storage: MinimalQueueStore) async -> [String] {
        await MinimalQueueAdapter.diagnostics(of: queue, storage: storage)
    }
    static func waitForPendingWork(in queue: MinimalQueue) async { await MinimalQueueAdapter.waitForPendingWork(in: queue) }
}
