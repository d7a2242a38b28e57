import Foundation
import WriteQueueContracts

/// The kit's transport behind the outbox's completion-handler transport.
struct OverflowOutboxKitTransport: OverflowOutboxTransport {
    let transport: ControlledTransport
    func post(_ request: OverflowOutboxRequest, completion: @escaping @Sendable (Result<OverflowOutboxHTTPResponse, any Error>) -> Void) {
        transport.send(WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body)) { result in
            completion(result.map { OverflowOutboxHTTPResponse(statusCode: $0.statusCode, body: $0.body) })
        }
    }
}

/// Runs the thirtieth trial's buggy outbox (a serial `DispatchQueue`, one JSON file, due dates
/// read through an injected `now`) against the kit's write-queue contracts.
public enum OverflowOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true, coalescesUpdates: true,
        backoff: .capped(at: .seconds(30)), requestTimeout: .seconds(60))

    public static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("overflow-outbox-" + UUID().uuidString)
    }
    public static func launch(from directory: URL, environment: QueueEnvironment) async throws -> OverflowOutbox {
        try OverflowOutbox(directory: directory, transport: OverflowOutboxKitTransport(transport: environment.transport),
                   now: environment.now)
    }
    public static func submit(_ operation: QueueOperation, to outbox: OverflowOutbox) async throws {
        let kind: OverflowOutboxOperationKind = operation.entity.map { .update(recordID: $0) } ?? .create
        try outbox.enqueue(kind, body: operation.body, label: operation.id)
    }
    public static func runSendingPass(_ outbox: OverflowOutbox) async throws { await outbox.flush() }
    public static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try OverflowOutbox.storedEntries(in: directory).map {
            PersistedTask(operationID: $0.label, key: $0.idempotencyKey, body: $0.body,
                          status: $0.state == .needsAttention ? .needsAttention : .pending,
                          attempts: $0.attempts,
                          createdAt: String($0.createdAt.timeIntervalSinceReferenceDate),
                          diagnostic: $0.failureReason)
        }
    }
    public static func diagnostics(of outbox: OverflowOutbox, storage: URL) async -> [String] { outbox.recentLog() }
    public static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
    public static func waitForPendingWork(in outbox: OverflowOutbox) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            outbox.performAfterPendingWork { done.resume() }
        }
    }
}
