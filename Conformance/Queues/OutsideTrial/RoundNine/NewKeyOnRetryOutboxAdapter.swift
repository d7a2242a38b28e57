// From an outside trial (round nine): the adapter its author wrote; the `@Test` function is
// dropped (the matrix runs the adapter).

import Foundation
import WriteQueueContracts

/// Drives the `@MainActor` sync model from the kit's (nonisolated) calls.
/// Expected: fails Q2 only (a new key on the retry after a lost response); see README.md.
enum NewKeyOnRetryOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        backoff: .capped(at: .seconds(20)),     // 0.5 s doubling, cap 20 s
        sensitiveFields: ["iban", "pin"])

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("NewKeyOnRetryOutbox-\(UUID().uuidString)", isDirectory: true)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> NewKeyOnRetryOutbox {
        let transport = environment.transport
        let now = environment.now
        let upload: DraftUpload = { key, payload in
            let response = try await transport.send(WriteRequest(idempotencyKey: key, body: payload))
            return DraftUploadResult(status: response.statusCode, body: response.body)
        }
        return try await MainActor.run {
            try NewKeyOnRetryOutbox(file: DraftOutboxFile(directory: directory), upload: upload, now: now)
        }
    }

    static func submit(_ operation: QueueOperation, to model: NewKeyOnRetryOutbox) async throws {
        let sourceID = operation.id
        let payload = operation.body
        try await MainActor.run {
            try model.save(sourceID: sourceID, payload: payload)
        }
    }

    static func runSendingPass(_ model: NewKeyOnRetryOutbox) async throws {
        await model.syncNow()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try DraftOutboxFile(directory: directory).load().map { change in
            PersistedTask(
                operationID: change.sourceID,
                key: change.idempotencyKey,
                body: change.payload,
                status: change.phase == .needsReview ? .needsAttention : .pending,
                attempts: change.attempts,
                createdAt: String(change.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: change.reviewNote)
        }
    }

    static func diagnostics(of model: NewKeyOnRetryOutbox, storage: URL) async -> [String] {
        await model.activity
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
