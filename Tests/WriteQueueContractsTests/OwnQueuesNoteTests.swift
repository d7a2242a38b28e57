import BundledImplementations
import ConformanceKit
import Testing
@testable import WriteQueueContracts

/// A Q7 failure of a queue whose every request came from machinery of its own (no trigger's tag
/// reached the transport) says, when its adapter has no `waitForPendingWork`, that the kit could
/// not see that machinery, so the verdict may be the adapter's; with a barrier, or with requests
/// sent from Swift concurrency, it says nothing of it. The queue is `MinimalQueue`, correct, one
/// pass run over one task: the note is what a failure would carry.
@Suite struct OwnQueuesNoteTests {
    @Test func withoutTheBarrierTheNoteIsSaid() async throws {
        let note = try await noteAfterOneSend(BarrierlessMinimalQueue.self, transport: .completionHandlerOnDispatchQueue)
        #expect(note?.contains("does not implement waitForPendingWork(in:)") == true, "\(note ?? "no note")")
    }

    @Test func withTheBarrierNothingIsSaid() async throws {
        let note = try await noteAfterOneSend(MinimalQueueAdapter.self, transport: .completionHandlerOnDispatchQueue)
        #expect(note == nil, "\(note ?? "")")
    }

    @Test func requestsFromSwiftConcurrencyNeedNoBarrier() async throws {
        let note = try await noteAfterOneSend(BarrierlessMinimalQueue.self, transport: .async)
        #expect(note == nil, "\(note ?? "")")
    }

    /// Launches `MinimalQueue` through `adapter`, submits one task, runs a pass until its request
    /// parks, and asks for the note.
    private func noteAfterOneSend<A: WriteQueueAdapter>(
        _ adapter: A.Type, transport: MinimalQueueSettings.Transport
    ) async throws -> String? {
        try await MinimalQueueAdapter.$settings.withValue(MinimalQueueSettings(transport: transport)) {
            let harness = try QueueHarness<A>(recorder: TimelineRecorder(tier: .required))
            try await harness.launch()
            try await harness.submit(harness.operation(1))
            try harness.startPass()
            try await harness.settle()
            try #require(harness.openSends.count == 1, "the pass sent op-1")
            let note = await harness.ownQueuesNote()
            await harness.finish()
            return note
        }
    }
}

/// `MinimalQueueAdapter` without its `waitForPendingWork`.
private enum BarrierlessMinimalQueue: WriteQueueAdapter {
    static var capabilities: QueueCapabilities { MinimalQueueAdapter.capabilities }
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
