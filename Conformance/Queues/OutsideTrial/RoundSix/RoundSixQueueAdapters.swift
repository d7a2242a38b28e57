// From an outside trial (round six): the adapters its author wrote, names changed only.

import Foundation
import WriteQueueContracts

private let roundSixTerminal: Set<Int> = Set(400..<500).subtracting([408, 409, 429])

enum TaskStateMachineQueueAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429], terminalStatusCodes: roundSixTerminal, exposesDiagnostics: true,
        backoff: .capped(at: .seconds(30)))
    static func makeStorage() throws -> TaskStateMachineStore { TaskStateMachineStore() }
    static func launch(from storage: TaskStateMachineStore, environment: QueueEnvironment) async throws -> TaskStateMachineQueue {
        let transport = environment.transport
        let clock = environment.clock
        return TaskStateMachineQueue(store: storage, send: { key, body in
            try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
        }, now: environment.now, sleep: { seconds in try await clock.sleep(for: .seconds(seconds)) })
    }
    static func submit(_ operation: QueueOperation, to queue: TaskStateMachineQueue) async throws {
        await queue.submit(operation: operation.id, body: operation.body)
    }
    static func runSendingPass(_ queue: TaskStateMachineQueue) async throws { try await queue.runPass() }
    static func persistedTasks(in storage: TaskStateMachineStore) async throws -> [PersistedTask] {
        storage.read { tasks in
            tasks.values.sorted { $0.createdAt < $1.createdAt }.map { t in
                let status: QueueTaskStatus
                var diagnostic: String?
                switch t.state {
                case .pending, .waiting: status = .pending
                case .sending: status = .inFlight
                case .done: status = .completed
                case .failed(let reason): status = .needsAttention; diagnostic = reason
                }
                return PersistedTask(operationID: t.operation, key: t.key, body: t.body, status: status,
                                     attempts: t.attempts, diagnostic: diagnostic)
            }
        }
    }
    static func diagnostics(of queue: TaskStateMachineQueue, storage: TaskStateMachineStore) async -> [String] { await queue.events }
}

// MARK: (c) BUGGY: deletes a task whose request was cancelled (URLError.cancelled)
enum CancelDropOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(
        retryableStatusCodes: [408, 429], terminalStatusCodes: roundSixTerminal, exposesDiagnostics: true,
        storageIsOnDisk: true, backoff: .capped(at: .seconds(20)))
    static func makeStorage() throws -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("cancel-drop-outbox-\(UUID().uuidString)")
    }
    static func launch(from storage: URL, environment: QueueEnvironment) async throws -> CancelDropOutbox {
        let transport = environment.transport
        return try CancelDropOutbox(folder: storage, post: { key, body in
            try await transport.send(WriteRequest(idempotencyKey: key, body: body)).statusCode
        }, now: environment.now)
    }
    static func submit(_ operation: QueueOperation, to queue: CancelDropOutbox) async throws {
        try await queue.add(op: operation.id, body: operation.body)
    }
    static func runSendingPass(_ queue: CancelDropOutbox) async throws { try await queue.sync() }
    static func persistedTasks(in storage: URL) async throws -> [PersistedTask] {
        try CancelDropOutbox.read(storage).map {
            PersistedTask(operationID: $0.op, key: $0.key, body: $0.body,
                          status: $0.halted == nil ? .pending : .needsAttention, attempts: $0.tries,
                          diagnostic: $0.halted)
        }
    }
    static func diagnostics(of queue: CancelDropOutbox, storage: URL) async -> [String] { await queue.log }
    static func discardStorage(_ storage: URL) { try? FileManager.default.removeItem(at: storage) }
}

