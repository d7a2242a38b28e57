// From an outside trial (trial 38): written by an author who read only the kit's README, Docs and
// public API, in the style of a notes app's sync queue; bundled as written but for the names
// (prefixed `NoteSync…` where they clashed) and the adapters' imports.

import WriteQueueContracts
import Foundation

/// The app's transport protocol over the kit's controlled transport. The kit calls the
/// completion on the thread that answers (a background thread), as URLSession does.
struct KitNoteSyncTransport: NoteSyncTransport {
    let transport: ControlledTransport

    func send(_ request: NoteSyncRequest, completion: @escaping @Sendable (Result<NoteSyncResponse, any Error>) -> Void) {
        transport.send(WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body)) { result in
            completion(result.map { NoteSyncResponse(statusCode: $0.statusCode, body: $0.body) })
        }
    }
}

extension QueueEnvironment {
    var noteSyncClock: NoteSyncClock {
        let clock = self.clock
        return NoteSyncClock(now: now, sleep: { try await clock.sleep(for: $0) })
    }
    /// A seeded jitter source per launch, so explorer seeds replay the same way.
    var noteSyncJitter: NoteSyncRandom { NoteSyncRandom(seed: 0x38 &+ UInt64(launch)) }
}

enum NoteSyncCapabilities {
    static let both = QueueCapabilities(
        conflictProfile: .sourceDocument,       // 409 = key reused with another body: stop
        retryableStatusCodes: [408, 429],
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        coalescesUpdates: true,
        backoff: .capped(at: .seconds(30)),
        requestTimeout: .seconds(60))           // no timeout of our own: URLSession's default
}

private func makeTempDirectory(_ prefix: String) -> URL {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("trial38-\(prefix)-\(UUID().uuidString)", isDirectory: true)
}

// MARK: - NoteSyncQueue

enum NoteSyncQueueAdapter: WriteQueueAdapter {
    static let capabilities = NoteSyncCapabilities.both

    static func makeStorage() throws -> URL { makeTempDirectory("good") }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> NoteSyncQueue {
        try await NoteSyncQueue(
            directory: directory,
            transport: KitNoteSyncTransport(transport: environment.transport),
            clock: environment.noteSyncClock,
            random: environment.noteSyncJitter)
    }

    static func submit(_ operation: QueueOperation, to queue: NoteSyncQueue) async throws {
        let kind: NoteSyncQueue.EditKind
        switch operation.kind {
        case .create: kind = .create
        case .update(let entity): kind = .update(noteID: entity)
        }
        try await queue.enqueue(kind, payload: operation.body, label: operation.id)
    }

    static func runSendingPass(_ queue: NoteSyncQueue) async throws {
        await queue.sync()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try NoteSyncQueue.storedEdits(in: directory).map { edit in
            PersistedTask(
                operationID: edit.label, key: edit.idempotencyKey, body: edit.payload,
                status: edit.state == .pending ? .pending : .needsAttention,
                attempts: edit.attempts,
                createdAt: String(edit.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: edit.diagnostic)
        }
    }

    static func diagnostics(of queue: NoteSyncQueue, storage: URL) async -> [String] {
        await queue.log
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}

// MARK: - BuggyNoteSyncQueue

enum BuggyNoteSyncQueueAdapter: WriteQueueAdapter {
    static let capabilities = NoteSyncCapabilities.both

    static func makeStorage() throws -> URL { makeTempDirectory("buggy") }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> BuggyNoteSyncQueue {
        try await BuggyNoteSyncQueue(
            folder: directory,
            http: KitNoteSyncTransport(transport: environment.transport),
            clock: environment.noteSyncClock,
            dice: environment.noteSyncJitter)
    }

    static func submit(_ operation: QueueOperation, to queue: BuggyNoteSyncQueue) async throws {
        switch operation.kind {
        case .create: try await queue.createNote(bytes: operation.body, tag: operation.id)
        case .update(let entity): try await queue.editNote(entity, bytes: operation.body, tag: operation.id)
        }
    }

    static func runSendingPass(_ queue: BuggyNoteSyncQueue) async throws {
        await queue.flush()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try BuggyNoteSyncQueue.items(in: directory).map { item in
            PersistedTask(
                operationID: item.tag, key: item.key, body: item.bytes,
                status: item.blockedReason == nil ? .pending : .needsAttention,
                attempts: item.tries,
                createdAt: String(item.born.timeIntervalSinceReferenceDate),
                diagnostic: item.blockedReason)
        }
    }

    static func diagnostics(of queue: BuggyNoteSyncQueue, storage: URL) async -> [String] {
        await queue.events
    }

    static func discardStorage(_ directory: URL) {
        try? FileManager.default.removeItem(at: directory)
    }
}
