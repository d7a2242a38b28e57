import Foundation
import WriteQueueContracts

/// The kit's transport behind the relay protocol: the key travels inside the frame.
struct KitRelayTransport: RelayTransport {
    let transport: ControlledTransport

    func deliver(_ frame: Data) async throws -> Int {
        try await transport.send(WriteRequest(idempotencyKey: nil, body: frame)).statusCode
    }
}

enum JournalRelayAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        conflictProfile: .ietfDraft,
        retryableStatusCodes: [408, 425, 429],
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(20)),
        sensitiveFields: ["password", "pin"],
        requestLayout: RequestLayout(operationBody: ["data"], key: .bodyField(["requestId"])))

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("JournalRelay-\(UUID().uuidString)", isDirectory: true)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> JournalRelay {
        try JournalRelay(directory: directory, transport: KitRelayTransport(transport: environment.transport),
                         now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to relay: JournalRelay) async throws {
        try relay.enqueue(operation.body, label: operation.id)
    }

    static func runSendingPass(_ relay: JournalRelay) async throws {
        await relay.drain()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try JournalRelay.storedItems(in: directory).map { item in
            PersistedTask(
                operationID: item.label, key: item.key, body: item.frame,
                status: item.stoppedBecause == nil ? .pending : .needsAttention,
                attempts: item.attempts,
                createdAt: String(item.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: item.stoppedBecause)
        }
    }

    static func diagnostics(of relay: JournalRelay, storage: URL) async -> [String] {
        relay.log
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
