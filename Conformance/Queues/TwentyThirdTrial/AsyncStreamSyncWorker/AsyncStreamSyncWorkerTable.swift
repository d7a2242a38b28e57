import Foundation

/// The app's SQLite-like `outbox` table (id, label, key, payload, created_at, state, attempts,
/// next_attempt_at, lease_expires_at, last_error); statements run under one lock. It outlives any
/// worker instance (it stands for the database file): a lease written here survives a crash and expires.
final class AsyncStreamSyncWorkerTable: @unchecked Sendable {
    enum State: String, Sendable {
        case pending, sending   // sending: leased by a worker until leaseExpiresAt
        case failed, conflict   // stopped: a terminal 4xx, or a 409
    }

    struct Row: Sendable {
        let id: Int64
        let label: String
        let key: String
        let payload: Data
        let createdAt: TimeInterval
        var state: State
        var attempts: Int
        var nextAttemptAt: TimeInterval
        var leaseExpiresAt: TimeInterval?
        var lastError: String?
    }

    private let lock = NSLock()
    private var rows: [Row] = []   // rowid order
    private var lastRowID: Int64 = 0

    init() {}

    /// `INSERT INTO outbox …`, pending and due at once.
    func insert(label: String, key: String, payload: Data, at time: TimeInterval) {
        locked {
            lastRowID += 1
            rows.append(Row(
                id: lastRowID, label: label, key: key, payload: payload, createdAt: time, state: .pending,
                attempts: 0, nextAttemptAt: time, leaseExpiresAt: nil, lastError: nil))
        }
    }

    /// `SELECT * FROM outbox ORDER BY id`.
    func selectAll() -> [Row] { locked { rows } }

    /// `UPDATE … WHERE id = (SELECT id … ORDER BY id LIMIT 1) RETURNING *`, one transaction.
    func claimFirst(where predicate: (Row) -> Bool, set change: (inout Row) -> Void) -> Row? {
        locked {
            guard let index = rows.firstIndex(where: predicate) else { return nil }
            change(&rows[index])
            return rows[index]
        }
    }

    /// `UPDATE outbox SET … WHERE id = ?`.
    func update(id: Int64, set change: (inout Row) -> Void) {
        locked {
            guard let index = rows.firstIndex(where: { $0.id == id }) else { return }
            change(&rows[index])
        }
    }

    /// `DELETE FROM outbox WHERE id = ?`.
    func delete(id: Int64) { locked { rows.removeAll { $0.id == id } } }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
