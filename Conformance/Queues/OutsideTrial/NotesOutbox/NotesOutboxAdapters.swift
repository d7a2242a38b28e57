import Foundation
import WriteQueueContracts

/// A seeded jitter source, so a run's delays are reproducible.
final class SeededUnitRandom: @unchecked Sendable {
    private var state: UInt64
    private let lock = NSLock()

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    /// SplitMix64, mapped to 0..<1.
    func next() -> Double {
        lock.lock()
        defer { lock.unlock() }
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}

enum NotesAdapterSupport {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true,
        storageIsOnDisk: true,
        coalescesUpdates: true,
        backoff: .capped(at: .seconds(30)),
        sensitiveFields: ["text"]
    )

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("trial28-notes-outbox", isDirectory: true)
            .appendingPathComponent(UUID().uuidString, isDirectory: true)
    }

    static func transport(_ environment: QueueEnvironment) -> NoteTransport {
        let transport = environment.transport
        return { request in
            let response = try await transport.send(
                WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body))
            return NotesOutboxResponse(statusCode: response.statusCode, body: response.body)
        }
    }

    static func random(_ environment: QueueEnvironment) -> @Sendable () -> Double {
        let source = SeededUnitRandom(seed: UInt64(environment.launch))
        return { source.next() }
    }

    /// The kit's creates have no note ID; each gets a client-side ID of its own.
    static func write(for operation: QueueOperation) -> NoteWrite {
        switch operation.kind {
        case .create: .create(noteID: "local-\(operation.id)")
        case .update(let entity): .update(noteID: entity)
        }
    }

    static func persisted(_ tasks: [NotesOutboxTask]) -> [PersistedTask] {
        tasks.map { task in
            PersistedTask(
                operationID: task.label ?? task.id.uuidString,
                key: task.idempotencyKey,
                body: task.body,
                status: task.isPending ? .pending : .needsAttention,
                attempts: task.attempts,
                createdAt: String(task.createdAt.timeIntervalSinceReferenceDate),
                diagnostic: task.stopReason
            )
        }
    }

    static func discard(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
}

enum NotesOutboxAdapter: WriteQueueAdapter {
    static let capabilities = NotesAdapterSupport.capabilities
    static func makeStorage() throws -> URL { try NotesAdapterSupport.makeStorage() }
    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> NotesOutbox {
        try NotesOutbox(
            directory: directory, transport: NotesAdapterSupport.transport(environment),
            clock: environment.clock, now: environment.now, random: NotesAdapterSupport.random(environment))
    }
    static func submit(_ operation: QueueOperation, to outbox: NotesOutbox) async throws {
        try await outbox.submit(NotesAdapterSupport.write(for: operation), body: operation.body, label: operation.id)
    }
    static func runSendingPass(_ outbox: NotesOutbox) async throws { await outbox.sync() }
    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        NotesAdapterSupport.persisted(try NotesOutbox.storedTasks(in: directory))
    }
    static func diagnostics(of outbox: NotesOutbox, storage: URL) async -> [String] { await outbox.log }
    static func discardStorage(_ directory: URL) { NotesAdapterSupport.discard(directory) }
}

enum BuggyNotesOutboxAdapter: WriteQueueAdapter {
    static let capabilities = NotesAdapterSupport.capabilities
    static func makeStorage() throws -> URL { try NotesAdapterSupport.makeStorage() }
    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> BuggyNotesOutbox {
        try BuggyNotesOutbox(
            directory: directory,
            transport: { [transport = environment.transport] request in
                let response = try await transport.send(
                    WriteRequest(idempotencyKey: request.idempotencyKey, body: request.body))
                return BuggyNotesOutbox.Response(statusCode: response.statusCode, body: response.body)
            },
            clock: environment.clock, now: environment.now, random: NotesAdapterSupport.random(environment))
    }
    static func submit(_ operation: QueueOperation, to outbox: BuggyNotesOutbox) async throws {
        try await outbox.submit(NotesAdapterSupport.write(for: operation), body: operation.body, label: operation.id)
    }
    static func runSendingPass(_ outbox: BuggyNotesOutbox) async throws { await outbox.sync() }
    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try BuggyNotesOutbox.storedTasks(in: directory).map { task in
            PersistedTask(
                operationID: task.label ?? task.id.uuidString, key: task.idempotencyKey, body: task.body,
                status: task.isPending ? .pending : .needsAttention, attempts: task.attempts,
                createdAt: String(task.createdAt.timeIntervalSinceReferenceDate), diagnostic: task.stopReason)
        }
    }
    static func diagnostics(of outbox: BuggyNotesOutbox, storage: URL) async -> [String] { await outbox.log }
    static func discardStorage(_ directory: URL) { NotesAdapterSupport.discard(directory) }
}
