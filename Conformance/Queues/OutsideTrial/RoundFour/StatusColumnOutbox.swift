// From an outside trial (round four): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation

/// A SQLite-like table of outgoing writes: one row per action, a status column, AUTOINCREMENT row IDs.
/// (The app backs this with SQLite; here it is an in-process table object with the same queries.)
public final class StatusColumnTable: @unchecked Sendable {
    public enum Status: String, Sendable { case pending, sending, failed }

    public struct Row: Sendable, Equatable {
        public var rowID: Int64
        public var label: String
        public var idempotencyKey: String
        public var payload: Data
        public var status: Status
        public var attemptCount: Int
        public var createdAt: Double      // seconds since 1970
        public var notBefore: Double      // next attempt, seconds since 1970
        public var failureReason: String?
    }

    private let lock = NSLock()
    private var rows: [Int64: Row] = [:]
    private var lastRowID: Int64 = 0      // AUTOINCREMENT: never reused

    public init() {}

    // INSERT INTO outbox (...) VALUES (...)
    @discardableResult
    public func insert(label: String, key: String, payload: Data, createdAt: Double) -> Int64 {
        lock.lock(); defer { lock.unlock() }
        lastRowID += 1
        rows[lastRowID] = Row(rowID: lastRowID, label: label, idempotencyKey: key, payload: payload,
                              status: .pending, attemptCount: 0, createdAt: createdAt,
                              notBefore: createdAt, failureReason: nil)
        return lastRowID
    }

    // SELECT * FROM outbox ORDER BY rowid
    public func allRows() -> [Row] {
        lock.lock(); defer { lock.unlock() }
        return rows.values.sorted { $0.rowID < $1.rowID }
    }

    // UPDATE outbox SET status='sending', attempt_count=attempt_count+1
    //  WHERE rowid IN (SELECT rowid FROM outbox WHERE status='pending' AND not_before <= ?
    //                  ORDER BY created_at DESC LIMIT ?) RETURNING *
    public func claimDue(now: Double, limit: Int, excluding: Set<Int64>) -> [Row] {
        lock.lock(); defer { lock.unlock() }
        let due = rows.values
            .filter { $0.status == .pending && $0.notBefore <= now && !excluding.contains($0.rowID) }
            .sorted { ($0.createdAt, $0.rowID) > ($1.createdAt, $1.rowID) }
            .prefix(limit)
        var claimed: [Row] = []
        for var row in due {
            row.status = .sending
            row.attemptCount += 1
            rows[row.rowID] = row
            claimed.append(row)
        }
        return claimed
    }

    // UPDATE outbox SET status='pending' WHERE status='sending'   (run at app launch)
    public func resetInterruptedSends() {
        lock.lock(); defer { lock.unlock() }
        for (id, row) in rows where row.status == .sending { rows[id]?.status = .pending }
    }

    public func update(_ rowID: Int64, _ change: (inout Row) -> Void) {
        lock.lock(); defer { lock.unlock() }
        guard var row = rows[rowID] else { return }
        change(&row)
        rows[rowID] = row
    }

    // DELETE FROM outbox WHERE rowid = ?
    public func delete(_ rowID: Int64) {
        lock.lock(); defer { lock.unlock() }
        rows[rowID] = nil
    }
}

/// Sends up to three rows at once with a TaskGroup, newest first.
public final class StatusColumnOutbox: Sendable {
    public typealias Send = @Sendable (_ idempotencyKey: String, _ payload: Data) async throws -> Int

    private let table: StatusColumnTable
    private let send: Send
    private let now: @Sendable () -> Date
    private let backoff: DueTimeBackoffPolicy
    private let maxConcurrent = 3

    public init(table: StatusColumnTable, backoff: DueTimeBackoffPolicy = DueTimeBackoffPolicy(base: 2, cap: 30),
                now: @escaping @Sendable () -> Date = Date.init, send: @escaping Send) {
        self.table = table
        self.send = send
        self.now = now
        self.backoff = backoff
        table.resetInterruptedSends()   // a send interrupted by process death is retried
    }

    @discardableResult
    public func enqueue(label: String, payload: Data) -> Int64 {
        table.insert(label: label, key: UUID().uuidString, payload: payload,
                     createdAt: now().timeIntervalSince1970)
    }

    private enum Outcome: Sendable { case status(Int), transportError(String) }

    public func sync() async {
        var attempted: Set<Int64> = []
        while !Task.isCancelled {
            let batch = table.claimDue(now: now().timeIntervalSince1970, limit: maxConcurrent,
                                       excluding: attempted)
            if batch.isEmpty { return }
            attempted.formUnion(batch.map(\.rowID))
            await withTaskGroup(of: (Int64, Outcome).self) { group in
                for row in batch {
                    group.addTask { [send] in
                        let outcome: Outcome
                        do {
                            let status = try await send(row.idempotencyKey, row.payload)
                            outcome = .status(status)
                        } catch {
                            outcome = .transportError(String(describing: type(of: error)))
                        }
                        return (row.rowID, outcome)
                    }
                }
                for await (rowID, outcome) in group {
                    record(outcome, for: rowID)
                }
            }
        }
    }

    private func record(_ outcome: Outcome, for rowID: Int64) {
        switch outcome {
        case .status(let s) where (200..<300).contains(s):
            table.delete(rowID)
        case .status(let s) where (400..<500).contains(s) && s != 408 && s != 429:
            table.update(rowID) { $0.status = .failed; $0.failureReason = "HTTP \(s)" }
        case .status(let s):
            retryLater(rowID, reason: "HTTP \(s)")
        case .transportError(let e):
            retryLater(rowID, reason: e)
        }
    }

    private func retryLater(_ rowID: Int64, reason: String) {
        let t = now().timeIntervalSince1970
        table.update(rowID) { row in
            row.status = .pending
            row.notBefore = t + backoff.delay(afterAttempt: row.attemptCount)
            row.failureReason = reason
        }
    }
}
