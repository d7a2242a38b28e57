import WriteQueueContracts
import Foundation

enum PendingUploadsSyncAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true, backoff: .capped(at: .seconds(30)))

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("r8q-c-" + UUID().uuidString)
    }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> PendingUploadsSync {
        let transport = environment.transport, clock = environment.clock, now = environment.now
        return try await MainActor.run {
            try PendingUploadsSync(
                directory: directory,
                post: { key, payload in
                    do {
                        return try await transport.send(WriteRequest(idempotencyKey: key, body: payload)).statusCode
                    } catch TransportError.timedOut {
                        throw PendingUploadsSync.UploadError.timedOut
                    } catch {
                        throw PendingUploadsSync.UploadError.offline
                    }
                },
                sleep: { try await clock.sleep(for: $0) },
                now: now)
        }
    }

    static func submit(_ operation: QueueOperation, to queue: PendingUploadsSync) async throws {
        try await queue.enqueue(tag: operation.id, payload: operation.body)
    }

    static func runSendingPass(_ queue: PendingUploadsSync) async throws { await queue.sync() }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        PendingUploadsSync.uploads(in: directory).map { upload in
            let status: QueueTaskStatus = switch upload.state {
            case .queued: .pending
            case .uploading: .inFlight
            case .failed: .needsAttention
            }
            return PersistedTask(
                operationID: upload.clientTag, key: upload.idempotencyKey, body: upload.payload, status: status,
                attempts: upload.tries, createdAt: String(upload.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: upload.failureReason)
        }
    }

    static func diagnostics(of queue: PendingUploadsSync, storage: URL) async -> [String] {
        await queue.debugLog
    }

    static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
}
