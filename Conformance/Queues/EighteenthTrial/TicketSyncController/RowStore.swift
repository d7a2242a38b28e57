// RowStore.swift — app code (target: HelpdeskCore)
//
// The app's small SQLite wrapper, reduced to what the outbox uses: tables of rows with an
// autoincrement rowid, and transactions that commit all of their changes or none. In the app
// it runs on SQLite in WAL mode; this in-memory version backs previews and tests.

import Foundation

public final class RowStore: @unchecked Sendable {
    public enum Value: Sendable, Hashable {
        case null
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob(Data)

        public var integer: Int64? { if case .integer(let v) = self { return v }; return nil }
        public var real: Double? { if case .real(let v) = self { return v }; return nil }
        public var text: String? { if case .text(let v) = self { return v }; return nil }
        public var blob: Data? { if case .blob(let v) = self { return v }; return nil }
    }

    public typealias Row = [String: Value]

    public struct Transaction: Sendable {
        fileprivate var tables: [String: [Int64: Row]] = [:]
        fileprivate var lastRowID: [String: Int64] = [:]

        /// INSERT; returns the new rowid (never reused, like AUTOINCREMENT).
        @discardableResult
        public mutating func insert(into table: String, _ row: Row) -> Int64 {
            let rowid = (lastRowID[table] ?? 0) + 1
            lastRowID[table] = rowid
            tables[table, default: [:]][rowid] = row
            return rowid
        }

        /// SELECT rowid, * FROM table WHERE predicate ORDER BY rowid.
        public func select(from table: String, where predicate: (Row) -> Bool = { _ in true })
            -> [(rowid: Int64, row: Row)] {
            (tables[table] ?? [:])
                .filter { predicate($0.value) }
                .sorted { $0.key < $1.key }
                .map { (rowid: $0.key, row: $0.value) }
        }

        /// UPDATE table SET … WHERE rowid = ?
        public mutating func update(_ table: String, rowid: Int64, set changes: Row) {
            guard var row = tables[table]?[rowid] else { return }
            row.merge(changes) { _, new in new }
            tables[table]?[rowid] = row
        }

        /// DELETE FROM table WHERE rowid = ?
        public mutating func delete(from table: String, rowid: Int64) {
            tables[table]?[rowid] = nil
        }
    }

    private let lock = NSLock()
    private var committed = Transaction()

    public init() {}

    /// BEGIN IMMEDIATE … COMMIT: the changes are visible to others all at once, or not at all
    /// when `body` throws.
    public func write<T>(_ body: (inout Transaction) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        var transaction = committed
        let result = try body(&transaction)
        committed = transaction
        return result
    }

    public func read<T>(_ body: (Transaction) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(committed)
    }
}
