import Foundation
import WriteQueueContracts

/// Drives the app-style ``StuckSendingRowOutbox`` (one file per row, `sending` written to disk
/// before each request), unchanged, bug included: a row left `sending` by a crash is never
/// picked again.
public enum StuckSendingRowOutboxAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true,
        backoff: .capped(at: .seconds(60)),  // maxDelay's default
        sensitiveFields: StuckSendingRowOutbox.sensitiveFields)

    /// The app's transport, sending through the kit's.
    struct Transport: StuckSendingRowTransport {
        let kit: ControlledTransport
        func send(_ request: StuckSendingRowRequest) async throws -> Int {
            try await kit.send(
                WriteRequest(idempotencyKey: request.headers["Idempotency-Key"], body: request.body)
            ).statusCode
        }
    }

    public static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("StuckSendingRowOutbox-\(UUID().uuidString)")
    }

    public static func launch(from directory: URL, environment: QueueEnvironment) async throws -> StuckSendingRowOutbox {
        try StuckSendingRowOutbox(
            directory: directory, transport: Transport(kit: environment.transport), clock: environment.clock,
            now: environment.now)
    }

    public static func submit(_ operation: QueueOperation, to outbox: StuckSendingRowOutbox) async throws {
        try await outbox.submit(body: operation.body)
    }

    public static func runSendingPass(_ outbox: StuckSendingRowOutbox) async throws { try await outbox.flush() }

    /// The row files, decoded as the outbox decodes them.
    static func storedRows(in directory: URL) throws -> [StuckSendingRow] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(".row.json") }
            .map { try JSONDecoder().decode(StuckSendingRow.self, from: Data(contentsOf: $0)) }
            .sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }

    public static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try storedRows(in: directory).map { row in
            let status: QueueTaskStatus
            switch row.status {
            case .pending: status = .pending
            case .sending: status = .inFlight
            case .needsAttention: status = .needsAttention
            }
            return PersistedTask(
                operationID: row.id.uuidString, key: row.idempotencyKey, body: row.body, status: status,
                attempts: row.attempts, createdAt: "\(row.createdAt.timeIntervalSince1970)",
                diagnostic: row.diagnostic)
        }
    }

    /// The queue has no log; its diagnostics are the ones it stores on stopped rows.
    public static func diagnostics(of outbox: StuckSendingRowOutbox, storage: URL) async -> [String] {
        ((try? storedRows(in: storage)) ?? []).compactMap(\.diagnostic)
    }

    public static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
}
