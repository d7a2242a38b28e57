import Foundation
import WriteQueueContracts

/// Drives the app-style ``RetryScheduleQueue`` (one `outbox.json` array, a `nextAttemptAt` per
/// job; a pass sends only due jobs and never waits), unchanged. The kit's passes play the
/// periodic sync.
public enum RetryScheduleQueueAdapter: WriteQueueAdapter {
    public static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true,
        backoff: .capped(at: .seconds(300)),  // maxDelay's default, kept as a due time
        sensitiveFields: RetryScheduleQueue.sensitiveFields)

    /// The app's uplink, delivering through the kit's transport.
    struct Uplink: RetryScheduleQueue.Uplink {
        let kit: ControlledTransport
        func deliver(_ outgoing: RetryScheduleQueue.Outgoing) async throws -> RetryScheduleQueue.Reply {
            let response = try await kit.send(
                WriteRequest(idempotencyKey: outgoing.headers["Idempotency-Key"], body: outgoing.body))
            return .http(response.statusCode)
        }
    }

    public static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("RetryScheduleQueue-\(UUID().uuidString)")
    }

    public static func launch(from directory: URL, environment: QueueEnvironment) async throws -> RetryScheduleQueue {
        try RetryScheduleQueue(directory: directory, uplink: Uplink(kit: environment.transport), now: environment.now)
    }

    public static func submit(_ operation: QueueOperation, to queue: RetryScheduleQueue) async throws {
        try await queue.submit(body: operation.body)
    }

    public static func runSendingPass(_ queue: RetryScheduleQueue) async throws { try await queue.runDuePass() }

    /// The jobs in `outbox.json`, read from disk (the actor's copy dies with the process).
    static func storedJobs(in directory: URL) throws -> [RetryScheduleQueue.Job] {
        let file = directory.appendingPathComponent("outbox.json")
        guard FileManager.default.fileExists(atPath: file.path) else { return [] }
        return try JSONDecoder().decode([RetryScheduleQueue.Job].self, from: Data(contentsOf: file))
    }

    public static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try storedJobs(in: directory).map { job in
            PersistedTask(
                operationID: job.id.uuidString, key: job.idempotencyKey, body: job.body,
                status: job.phase == .waiting ? .pending : .needsAttention, attempts: job.attempts,
                createdAt: "\(job.createdAt.timeIntervalSince1970)", diagnostic: job.failureNote)
        }
    }

    /// The queue has no log; its diagnostics are the notes it stores on failed jobs.
    public static func diagnostics(of queue: RetryScheduleQueue, storage: URL) async -> [String] {
        ((try? storedJobs(in: storage)) ?? []).compactMap(\.failureNote)
    }

    public static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
}
