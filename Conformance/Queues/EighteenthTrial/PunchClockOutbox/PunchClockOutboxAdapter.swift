// PunchClockOutboxAdapter.swift — test target (ShiftKitTests)
// Written from Docs/WriteQueue.md only ("Completion-handler transports", "waitForPendingWork").
// In the app's test target this file starts with `@testable import ShiftKit`.

import WriteQueueContracts
import Foundation

enum PunchClockOutboxAdapter: WriteQueueAdapter {
    // Ladder 1, 5, 15, 30, 60 s: 60 s is the cap. 408/429 retried, other 4xx need review.
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        backoff: .capped(at: .seconds(60)))

    /// The store object stands for the app's Core Data store: it survives a crash. The outbox's
    /// lease set lives in the outbox instance, so there is no process memory to forget here.
    static func makeStorage() throws -> PunchStore { PunchStore() }

    static func launch(from store: PunchStore, environment: QueueEnvironment) async throws -> PunchClockOutbox {
        let transport = environment.transport
        return PunchClockOutbox(
            store: store,
            post: { key, body, completion in
                transport.send(WriteRequest(idempotencyKey: key, body: body)) { result in
                    completion(result.map(\.statusCode))
                }
                // The kit's transport cannot be cancelled; in the app this is dataTask.cancel().
                return PunchClockOutbox.RequestHandle(cancel: {})
            },
            now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: PunchClockOutbox) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            outbox.enqueue(operation.body, label: operation.id) { result in
                continuation.resume(with: result.map { _ in () })
            }
        }
    }

    static func runSendingPass(_ outbox: PunchClockOutbox) async throws {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            outbox.flush { continuation.resume() }
        }
    }

    static func persistedTasks(in store: PunchStore) async throws -> [PersistedTask] {
        store.all().map { punch in
            PersistedTask(
                operationID: punch.label,
                key: punch.idempotencyKey,
                body: punch.body,
                status: punch.status == .needsReview ? .needsAttention : .pending,
                attempts: punch.attempts,
                createdAt: String(punch.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: punch.status == .needsReview ? punch.note : nil)
        }
    }

    static func diagnostics(of outbox: PunchClockOutbox, storage: PunchStore) async -> [String] {
        outbox.log
    }

    static func waitForPendingWork(in outbox: PunchClockOutbox) async {
        outbox.barrier()
    }
}
