// From an outside trial (round eight): the adapters their author wrote, names changed only.

import Foundation
import WriteQueueContracts

private func roundEightTempDirectory() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("RoundEight-\(UUID().uuidString)")
}

// MARK: a. Write-ahead log

enum RoundEightWALAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(exposesDiagnostics: true, storageIsOnDisk: true)

    static func makeStorage() throws -> URL { roundEightTempDirectory() }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> RoundEightWALOutbox {
        let transport = environment.transport
        return try RoundEightWALOutbox(directory: directory, post: { key, body in
            try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
        }, now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: RoundEightWALOutbox) async throws {
        try await outbox.enqueue(label: operation.id, body: operation.body)
    }

    static func runSendingPass(_ outbox: RoundEightWALOutbox) async throws { await outbox.flush() }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        let state = try RoundEightWALOutbox.replay(directory: directory)
        return state.entries.map { entry in
            let ack = state.acks[entry.id]
            let status: QueueTaskStatus
            switch ack?.outcome {
            case nil: status = .pending
            case .delivered: status = .completed
            case .rejected: status = .needsAttention
            }
            return PersistedTask(operationID: entry.label, key: entry.idempotencyKey, body: entry.body,
                                 status: status, attempts: 0,
                                 createdAt: String(entry.enqueuedAt.timeIntervalSinceReferenceDate),
                                 diagnostic: ack?.note)
        }
    }

    static func diagnostics(of outbox: RoundEightWALOutbox, storage: URL) async -> [String] { await outbox.log }

    static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
}

// MARK: b. OperationQueue uploader

enum RoundEightOperationUploaderAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(storageIsOnDisk: true)

    static func makeStorage() throws -> URL { roundEightTempDirectory() }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> RoundEightOperationUploader {
        let transport = environment.transport
        return try RoundEightOperationUploader(directory: directory, send: { key, body, completion in
            transport.send(WriteRequest(idempotencyKey: key, body: body)) { result in
                completion(result.map(\.statusCode))
            }
        }, now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to uploader: RoundEightOperationUploader) async throws {
        try uploader.enqueue(label: operation.id, body: operation.body)
    }

    static func runSendingPass(_ uploader: RoundEightOperationUploader) async throws { await uploader.flush() }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try RoundEightOperationUploader.load(from: RoundEightOperationUploader.fileURL(in: directory)).map { upload in
            PersistedTask(operationID: upload.label, key: upload.idempotencyKey, body: upload.body,
                          status: upload.state == .failed ? .needsAttention : .pending,
                          attempts: upload.attempts,
                          createdAt: String(upload.createdAt.timeIntervalSinceReferenceDate),
                          diagnostic: upload.failureReason)
        }
    }

    static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }

    // The docs suggest `addBarrierBlock` here, but a barrier waits for the asynchronous
    // operations whose requests are parked, so every contract hung on the watchdog (run 1).
    // Left at the default.
}

// MARK: c. Reachability-triggered outbox

/// Stands in for the app's NWPathMonitor wrapper: the test says when the network is back.
final class RoundEightTestReachability: RoundEightReachability, @unchecked Sendable {
    private let lock = NSLock()
    private var handler: (@Sendable () async -> Void)?

    func setOnReachable(_ handler: @escaping @Sendable () async -> Void) {
        lock.withLock { self.handler = handler }
    }

    func becomeReachable() async {
        let handler = lock.withLock { self.handler }
        await handler?()
    }
}

struct RoundEightReachabilityHarness: Sendable {
    let outbox: RoundEightReachabilityOutbox<ManualClock>
    let reachability: RoundEightTestReachability
}

enum RoundEightReachabilityAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        storageIsOnDisk: true, backoff: .capped(at: .seconds(60)), requestTimeout: .seconds(30))

    static func makeStorage() throws -> URL {
        let directory = roundEightTempDirectory()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    static func file(in directory: URL) -> URL { directory.appendingPathComponent("outbox.json") }

    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> RoundEightReachabilityHarness {
        let transport = environment.transport
        let outbox = try RoundEightReachabilityOutbox(fileURL: file(in: directory), send: { key, body in
            try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
        }, clock: environment.clock, now: environment.now,
            policy: .init(requestTimeout: .seconds(30), baseDelay: 1, maxDelay: 60))
        let reachability = RoundEightTestReachability()
        outbox.observe(reachability)
        return RoundEightReachabilityHarness(outbox: outbox, reachability: reachability)
    }

    static func submit(_ operation: QueueOperation, to harness: RoundEightReachabilityHarness) async throws {
        try await harness.outbox.enqueue(label: operation.id, body: operation.body)
    }

    static func runSendingPass(_ harness: RoundEightReachabilityHarness) async throws {
        await harness.reachability.becomeReachable()
    }

    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try RoundEightReachabilityOutbox<ManualClock>.load(from: file(in: directory)).map { item in
            PersistedTask(operationID: item.label, key: item.idempotencyKey, body: item.body,
                          status: item.stoppedReason == nil ? .pending : .needsAttention,
                          attempts: item.attempts,
                          createdAt: String(item.createdAt.timeIntervalSinceReferenceDate),
                          diagnostic: item.stoppedReason)
        }
    }

    static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
}

// MARK: d. Actor over a key-value store

enum RoundEightKeyValueAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(exposesDiagnostics: true)

    static func makeStorage() throws -> RoundEightMemoryKeyValueStore { RoundEightMemoryKeyValueStore() }

    static func launch(from store: RoundEightMemoryKeyValueStore, environment: QueueEnvironment) async throws -> RoundEightKeyValueOutbox {
        let transport = environment.transport
        return RoundEightKeyValueOutbox(store: store, upload: { key, payload in
            try await transport.send(WriteRequest(idempotencyKey: key, body: payload)).statusCode
        }, now: environment.now)
    }

    static func submit(_ operation: QueueOperation, to outbox: RoundEightKeyValueOutbox) async throws {
        try await outbox.add(label: operation.id, payload: operation.body)
    }

    static func runSendingPass(_ outbox: RoundEightKeyValueOutbox) async throws { await outbox.sync() }

    static func persistedTasks(in store: RoundEightMemoryKeyValueStore) async throws -> [PersistedTask] {
        let pending = RoundEightKeyValueOutbox.pendingIDs(in: store).compactMap { RoundEightKeyValueOutbox.write($0, in: store) }
            .map { write in
                PersistedTask(operationID: write.label, key: write.idempotencyKey, body: write.payload,
                              status: .pending, attempts: write.tries,
                              createdAt: String(write.createdAt.timeIntervalSinceReferenceDate))
            }
        let refused = RoundEightKeyValueOutbox.refusedWrites(in: store).map { refused in
            PersistedTask(operationID: refused.write.label, key: refused.write.idempotencyKey,
                          body: refused.write.payload, status: .needsAttention, attempts: refused.write.tries,
                          createdAt: String(refused.write.createdAt.timeIntervalSinceReferenceDate),
                          diagnostic: refused.userMessage)
        }
        return pending + refused
    }

    static func diagnostics(of outbox: RoundEightKeyValueOutbox, storage: RoundEightMemoryKeyValueStore) async -> [String] {
        await outbox.debugLog
    }
}

