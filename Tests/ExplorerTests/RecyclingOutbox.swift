import ConformanceKit
import ConformanceTesting
import Foundation

/// A correct outbox written in ways the explorer's per-step rules must accept (each one once
/// flagged a correct queue in review):
///
/// - row IDs are `row-<largest + 1>` (SQLite's rowid without AUTOINCREMENT), so deleting the
///   last row and inserting reuses its ID;
/// - a task is deleted on success, not kept as completed;
/// - a stopped task (409, 400, …) drops its key, since it is never sent again;
/// - a pass goes round the tasks and pauses after each unknown outcome (8 s, then the 16 s cap)
///   before the next task, so a task's resend may come more than the cap after its own answer,
///   though no single wait exceeds the cap.
///
/// It passes every applicable fixed Q contract (checked in ``RecyclingOutboxTests``).
actor RecyclingOutbox {
    static let cap: Duration = .seconds(16)

    private let store: RecyclingStore
    private let environment: QueueEnvironment
    private var sending: Set<String> = []
    private var log: [String] = []

    init(store: RecyclingStore, environment: QueueEnvironment) {
        self.store = store
        self.environment = environment
    }

    func enqueue(_ body: Data) {
        let row = store.insert(body: body, key: UUID().uuidString)
        log.append("queued \(row) (\(body.count) bytes)")
    }

    func flush() async {
        while !Task.isCancelled {
            var sentAny = false
            for id in store.rows.map(\.id) {
                guard let row = store.rows.first(where: { $0.id == id }), row.state == .pending, let key = row.key,
                    sending.insert(id).inserted
                else { continue }
                sentAny = true
                let status: Int?
                do {
                    status = try await environment.transport.send(WriteRequest(idempotencyKey: key, body: row.body)).statusCode
                } catch is CancellationError {
                    sending.remove(id)
                    return
                } catch {
                    status = nil
                }
                sending.remove(id)
                switch status {
                case let status? where (200..<300).contains(status):
                    store.delete(id)
                    log.append("\(id) sent")
                case nil, 408?, 429?, (500...)?:
                    let attempts = store.update(id) { $0.attempts += 1 }
                    let delay = min(Self.cap, .seconds(8) * (1 << min(attempts - 1, 8)))
                    log.append("\(id) retry \(attempts) after \(delay)")
                    do {
                        try await environment.clock.wait(until: environment.clock.now.advanced(by: delay))
                    } catch {
                        return
                    }
                case let status?:
                    store.update(id) {
                        $0.state = .stopped("the server answered \(status)")
                        $0.key = nil
                    }
                    log.append("\(id) stopped (\(status))")
                }
            }
            if !sentAny { return }
        }
    }

    func logLines() -> [String] { log }
}

/// The outbox's durable rows, shared by every instance of one run.
final class RecyclingStore: Sendable {
    struct Row: Sendable {
        enum State: Equatable, Sendable {
            case pending
            case stopped(String)
        }

        let id: String
        var key: String?
        let body: Data
        var state: State = .pending
        var attempts = 0
    }

    private let stored = Locked<[Row]>(rawValue: [])

    var rows: [Row] { stored.rawValue }

    /// Inserts a row with the next row ID after the largest stored (a deleted last row's ID is
    /// used again).
    func insert(body: Data, key: String) -> String {
        stored.withLock { stored in
            let largest = stored.compactMap { Int($0.id.dropFirst(4)) }.max() ?? 0
            let id = "row-\(largest + 1)"
            stored.append(Row(id: id, key: key, body: body))
            return id
        }
    }

    func delete(_ id: String) {
        stored.withLock { $0.removeAll { $0.id == id } }
    }

    @discardableResult
    func update(_ id: String, _ change: (inout Row) -> Void) -> Int {
        stored.withLock { stored in
            guard let index = stored.firstIndex(where: { $0.id == id }) else { return 0 }
            change(&stored[index])
            return stored[index].attempts
        }
    }
}

enum RecyclingOutboxAdapter: WriteQueueAdapter {
    static let capabilities = QueueCapabilities(exposesDiagnostics: true, backoff: .capped(at: RecyclingOutbox.cap))

    static func makeStorage() throws -> RecyclingStore { RecyclingStore() }

    static func launch(from store: RecyclingStore, environment: QueueEnvironment) async throws -> RecyclingOutbox {
        RecyclingOutbox(store: store, environment: environment)
    }

    static func submit(_ operation: QueueOperation, to outbox: RecyclingOutbox) async throws {
        await outbox.enqueue(operation.body)
    }

    static func runSendingPass(_ outbox: RecyclingOutbox) async throws {
        await outbox.flush()
    }

    static func persistedTasks(in store: RecyclingStore) async throws -> [PersistedTask] {
        store.rows.map { row in
            switch row.state {
            case .pending:
                PersistedTask(operationID: row.id, key: row.key, body: row.body, status: .pending, attempts: row.attempts)
            case .stopped(let reason):
                PersistedTask(
                    operationID: row.id, key: row.key, body: row.body, status: .needsAttention,
                    attempts: row.attempts, diagnostic: reason)
            }
        }
    }

    static func diagnostics(of outbox: RecyclingOutbox, storage: RecyclingStore) async -> [String] {
        await outbox.logLines()
    }
}
