import WriteQueueContracts
import Foundation

/// Kit adapter for `InspectionReportOutbox` (an actor over one JSON file per report, due times
/// in the files, a sync that sends what is due and returns).
///
/// Registered like the quick start's queue:
/// `@Test(arguments: WriteQueueContract.all(for: InspectionReportOutboxAdapter.self))`
/// `func inspectionReportOutboxConforms(_ c: WriteQueueContract) async { await c.check(InspectionReportOutboxAdapter.self) }`
enum InspectionReportOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(30)))  // RetryPolicy(): base 1 s, cap 30 s

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("InspectionReportOutbox-\(UUID().uuidString)", isDirectory: true)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> InspectionReportOutbox {
        let transport = environment.transport
        return try InspectionReportOutbox(
            directory: directory,
            upload: { key, payload in
                try await transport.send(WriteRequest(idempotencyKey: key, body: payload)).statusCode
            },
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: InspectionReportOutbox) async throws {
        try await outbox.enqueue(label: operation.id, payload: operation.body)
    }

    static func runSendingPass(_ outbox: InspectionReportOutbox) async throws {
        await outbox.syncPending()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try InspectionReportOutbox.storedReports(in: directory)
            .sorted { $0.createdAt < $1.createdAt }
            .map { report in
                PersistedTask(
                    operationID: report.label,
                    key: report.idempotencyKey,
                    body: report.payload,
                    status: report.state == .pending ? .pending : .needsAttention,
                    attempts: report.attempts,
                    createdAt: String(report.createdAt.timeIntervalSinceReferenceDate),
                    diagnostic: report.reviewNote)
            }
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
