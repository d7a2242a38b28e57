import Foundation

/// The warehouse app's local database, reduced to what the scan outbox uses: one
/// `scan_outbox` table (durable: it survives the process) and a `TEMP` table of send claims,
/// which lives in the connection and so vanishes with the process, as SQLite's TEMP tables do.
///
/// Written as an actor with the shape of the SQL it stands for; every method is one statement
/// (or one transaction), so each is atomic with respect to the others.
actor ScanOutboxDatabase {
    struct Row: Sendable, Equatable {
        enum Status: String, Sendable {
            case queued
            case needsAttention
            case done
        }

        /// `INTEGER PRIMARY KEY AUTOINCREMENT`: never reused, even after rows are pruned.
        let rowID: Int64
        let label: String
        let idempotencyKey: String
        let payload: Data
        let createdAt: Date
        var status: Status
        var attempts: Int
        var dueAt: Date
        var lastError: String?
    }

    private var table: [Int64: Row] = [:]
    private var lastRowID: Int64 = 0
    /// `CREATE TEMP TABLE claims (rowid INTEGER PRIMARY KEY, owner TEXT)`.
    private var claims: [Int64: String] = [:]

    init() {}

    /// `INSERT INTO scan_outbox (…) VALUES (…)`, status `queued`, due at once.
    func insert(label: String, idempotencyKey: String, payload: Data, createdAt: Date) -> Int64 {
        lastRowID += 1
        table[lastRowID] = Row(
            rowID: lastRowID, label: label, idempotencyKey: idempotencyKey, payload: payload,
            createdAt: createdAt, status: .queued, attempts: 0, dueAt: createdAt)
        return lastRowID
    }

    /// `SELECT * FROM scan_outbox WHERE … ORDER BY rowid LIMIT ?`.
    func select(where predicate: @Sendable (Row) -> Bool, limit: Int) -> [Row] {
        Array(table.values.filter(predicate).sorted { $0.rowID < $1.rowID }.prefix(limit))
    }

    /// One transaction: claims each listed row that is still queued, due and unclaimed
    /// (`INSERT INTO claims … WHERE NOT EXISTS …`), and returns the rows it claimed.
    func claim(_ rowIDs: [Int64], owner: String, dueBy now: Date) -> [Row] {
        var claimed: [Row] = []
        for id in rowIDs {
            guard let row = table[id], row.status == .queued, row.dueAt <= now, claims[id] == nil
            else { continue }
            claims[id] = owner
            claimed.append(row)
        }
        return claimed
    }

    /// One transaction: `UPDATE scan_outbox SET … WHERE rowid = ?` and drop the caller's claim.
    func finish(_ rowID: Int64, owner: String, _ change: @Sendable (inout Row) -> Void) {
        if var row = table[rowID] {
            change(&row)
            table[rowID] = row
        }
        if claims[rowID] == owner { claims[rowID] = nil }
    }

    /// `DELETE FROM claims WHERE rowid = ? AND owner = ?`.
    func release(_ rowID: Int64, owner: String) {
        if claims[rowID] == owner { claims[rowID] = nil }
    }

    /// The connection closed with its process: TEMP tables are gone, the table stays.
    func dropTemporaryTables() {
        claims.removeAll()
    }

    /// `SELECT * FROM scan_outbox ORDER BY rowid` (the debug screen).
    func allRows() -> [Row] {
        table.values.sorted { $0.rowID < $1.rowID }
    }
}
