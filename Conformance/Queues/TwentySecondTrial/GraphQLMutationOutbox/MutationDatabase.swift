import Foundation

/// The app's local store for pending GraphQL mutations (in production a thin wrapper over the
/// app's SQLite file; here it lives in memory). It outlives any one `GraphQLMutationOutbox`:
/// the outbox is rebuilt on every launch and talks to the rows only through these calls.
final class MutationDatabase: @unchecked Sendable {  // every stored property is guarded by `lock`
    struct Row {
        enum State: String { case pending, needsAttention }

        let rowID: Int64
        /// The caller's own identifier for the operation ("op-1", a draft ID, …).
        let label: String
        let mutationName: String
        /// The operation's body, decoded once at enqueue and re-encoded for every request.
        let input: [String: Any]
        let clientMutationID: String
        let createdAt: Date
        var state: State
        var attempts: Int
        var notBefore: Date
        var failureReason: String?
    }

    private let lock = NSLock()
    private var rows: [Int64: Row] = [:]
    private var nextRowID: Int64 = 1

    init() {}

    func insert(label: String, mutationName: String, input: [String: Any], clientMutationID: String, createdAt: Date) -> Int64 {
        locked { () -> Int64 in
            let rowID = nextRowID
            nextRowID += 1
            rows[rowID] = Row(
                rowID: rowID, label: label, mutationName: mutationName, input: input,
                clientMutationID: clientMutationID, createdAt: createdAt, state: .pending,
                attempts: 0, notBefore: createdAt, failureReason: nil)
            return rowID
        }
    }

    func row(_ rowID: Int64) -> Row? {
        locked { rows[rowID] }
    }

    func update(_ rowID: Int64, _ change: (inout Row) -> Void) {
        locked {
            guard var row = rows[rowID] else { return }
            change(&row)
            rows[rowID] = row
        }
    }

    func delete(_ rowID: Int64) {
        locked { _ = rows.removeValue(forKey: rowID) }
    }

    /// `SELECT * FROM mutations WHERE state = 'pending' AND not_before <= ? ORDER BY created_at DESC`
    func pendingRows(dueBy date: Date) -> [Row] {
        locked {
            rows.values
                .filter { $0.state == .pending && $0.notBefore <= date }
                .sorted { ($0.createdAt, $0.rowID) > ($1.createdAt, $1.rowID) }
        }
    }

    func allRows() -> [Row] {
        locked { rows.values.sorted { $0.rowID < $1.rowID } }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
