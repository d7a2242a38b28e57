// From an outside trial (round four): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import WriteQueueContracts
import Foundation

// MARK: - Adapters

enum MutationEnvelopeDocuments {
    static let createTicket = "mutation CreateTicket($input: CreateTicketInput!) { createTicket(input: $input) { clientMutationId } }"
}

/// (a) GraphQL outbox: key in the body, one JSON file, due-time backoff capped at 32 s.
enum MutationEnvelopeOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        exposesDiagnostics: true, storageIsOnDisk: true, backoff: .capped(at: .seconds(32)),
        requestLayout: RequestLayout(operationBody: ["variables", "input"],
                                     key: .bodyField(["variables", "input", "clientMutationId"])))

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("mutation-envelope-outbox-" + UUID().uuidString)
    }
    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> MutationEnvelopeOutbox {
        let transport = environment.transport
        return try MutationEnvelopeOutbox(directory: directory, now: environment.now) { body in
            let response = try await transport.send(WriteRequest(idempotencyKey: nil, body: body))
            return (response.statusCode, response.body)
        }
    }
    static func submit(_ operation: QueueOperation, to outbox: MutationEnvelopeOutbox) async throws {
        try await outbox.enqueue(mutation: MutationEnvelopeDocuments.createTicket, input: operation.body, label: operation.id)
    }
    static func runSendingPass(_ outbox: MutationEnvelopeOutbox) async throws { try await outbox.flush() }
    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        try MutationEnvelopeOutbox.storedRecords(in: directory).map {
            PersistedTask(operationID: $0.label, key: $0.clientMutationId, body: $0.body,
                          status: $0.state == .pending ? .pending : .needsAttention,
                          attempts: $0.attempts,
                          createdAt: String($0.createdAt.timeIntervalSinceReferenceDate),
                          diagnostic: $0.state == .needsAttention ? $0.lastError : nil)
        }
    }
    static func diagnostics(of outbox: MutationEnvelopeOutbox, storage: URL) async -> [String] { await outbox.log }
    static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
}

/// (b) Row table with a status column, TaskGroup of 3, newest first, due-time backoff capped at 30 s.
enum StatusColumnOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(backoff: .capped(at: .seconds(30)))

    static func makeStorage() throws -> StatusColumnTable { StatusColumnTable() }
    static func launch(from table: StatusColumnTable, environment: QueueEnvironment) async throws -> StatusColumnOutbox {
        let transport = environment.transport
        return StatusColumnOutbox(table: table, now: environment.now) { key, payload in
            try await transport.send(WriteRequest(idempotencyKey: key, body: payload)).statusCode
        }
    }
    static func submit(_ operation: QueueOperation, to outbox: StatusColumnOutbox) async throws {
        outbox.enqueue(label: operation.id, payload: operation.body)
    }
    static func runSendingPass(_ outbox: StatusColumnOutbox) async throws { await outbox.sync() }
    static func persistedTasks(in table: StatusColumnTable) async throws -> [PersistedTask] {
        table.allRows().map { row in
            let status: QueueTaskStatus = switch row.status {
            case .pending: .pending
            case .sending: .inFlight
            case .failed: .needsAttention
            }
            return PersistedTask(operationID: row.label, key: row.idempotencyKey, body: row.payload,
                                 status: status, attempts: row.attemptCount,
                                 createdAt: String(row.createdAt),
                                 diagnostic: row.status == .failed ? row.failureReason : nil)
        }
    }
}

/// (c) BUGGY: defaults-backed FIFO, inline retry on the clock (1, 2, 4 s); drops a write whose request throws.
enum PreferencesOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(backoff: .capped(at: .seconds(4)))

    static func makeStorage() throws -> PreferencesStore { PreferencesStore() }
    static func launch(from store: PreferencesStore, environment: QueueEnvironment) async throws -> PreferencesOutbox {
        let transport = environment.transport
        let clock = environment.clock
        return PreferencesOutbox(store: store, now: environment.now,
                                sleep: { try await clock.sleep(for: $0) }) { key, body in
            try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
        }
    }
    static func submit(_ operation: QueueOperation, to outbox: PreferencesOutbox) async throws {
        await outbox.add(label: operation.id, body: operation.body)
    }
    static func runSendingPass(_ outbox: PreferencesOutbox) async throws { await outbox.sync() }
    static func persistedTasks(in store: PreferencesStore) async throws -> [PersistedTask] {
        PreferencesOutbox.pendingWrites(in: store).map {
            PersistedTask(operationID: $0.label, key: $0.idempotencyKey, body: $0.body,
                          status: $0.stoppedReason == nil ? .pending : .needsAttention,
                          attempts: $0.attempts,
                          createdAt: String($0.createdAt.timeIntervalSinceReferenceDate),
                          diagnostic: $0.stoppedReason)
        }
    }
}

/// (d) BUGGY: completion handlers on a serial DispatchQueue, file per request; retries every non-409 4xx.
enum SerialQueueFileOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(storageIsOnDisk: true, backoff: .capped(at: .seconds(60)))

    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("serial-queue-file-outbox-" + UUID().uuidString)
    }
    static func launch(from directory: URL, environment: QueueEnvironment) async throws -> SerialQueueFileOutbox {
        let transport = environment.transport
        return try SerialQueueFileOutbox(directory: directory, now: environment.now) { key, body, completion in
            transport.send(WriteRequest(idempotencyKey: key, body: body)) { result in
                completion(result.map(\.statusCode))
            }
        }
    }
    static func submit(_ operation: QueueOperation, to outbox: SerialQueueFileOutbox) async throws {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            outbox.enqueue(tag: operation.id, body: operation.body) { c.resume() }
        }
    }
    static func runSendingPass(_ outbox: SerialQueueFileOutbox) async throws {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            outbox.flush { c.resume() }
        }
    }
    static func persistedTasks(in directory: URL) async throws -> [PersistedTask] {
        SerialQueueFileOutbox.storedRequests(in: directory).map {
            PersistedTask(operationID: $0.tag, key: $0.idempotencyKey, body: $0.body,
                          status: $0.state == .queued ? .pending : .needsAttention,
                          attempts: $0.attempts,
                          createdAt: String($0.createdAt.timeIntervalSinceReferenceDate),
                          diagnostic: $0.state == .blocked ? $0.note : nil)
        }
    }
    static func waitForPendingWork(in outbox: SerialQueueFileOutbox) async { outbox.waitUntilIdle() }
    static func discardStorage(_ directory: URL) { try? FileManager.default.removeItem(at: directory) }
}

// MARK: - Contract suites (the documented way)
