import WriteQueueContracts
import Foundation

enum PayrollUploadCenterAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true, backoff: .capped(at: .seconds(60)),
        sensitiveFields: PayrollUploadCenter.protectedFields)

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("payroll-\(UUID().uuidString)")
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> PayrollUploadCenter {
        let transport = environment.transport
        return try PayrollUploadCenter(directory: directory, transport: { key, payload, completion in
            transport.send(WriteRequest(idempotencyKey: key, body: payload)) { result in
                completion(result.map { UploadAnswer(statusCode: $0.statusCode, body: $0.body) })
            }
        }, now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to center: PayrollUploadCenter) async throws {
        try center.submit(reference: operation.id, payload: operation.body)
    }

    static func runSendingPass(_ center: PayrollUploadCenter) async throws {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                center.sync { done.resume() }
            }
        } onCancel: {
            center.stopSending()
        }
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try PendingChangeStore.contents(of: directory).map { change in
            PersistedTask(
                operationID: change.clientReference, key: change.idempotencyKey, body: change.payload,
                status: change.state == .blocked ? .needsAttention : .pending, attempts: change.attempts,
                createdAt: String(change.createdAt.timeIntervalSinceReferenceDate), diagnostic: change.blockedReason)
        }
    }

    static func diagnostics(of center: PayrollUploadCenter, storage: URL) async -> [String] {
        center.activityLog
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
