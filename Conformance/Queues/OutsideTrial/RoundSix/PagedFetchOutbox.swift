// From an outside trial (round six): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation

/// Queue (d), BUGGY on purpose. A row-table outbox (think Core Data / SQLite rows with an
/// autoincrement rowid). Each sync fetches the oldest 25 unfinished rows (`fetchLimit = 25`,
/// predicate "not sent") and sends the ones that are due. The bug: the fetch does not exclude
/// rows stopped for a person to resolve (409/4xx), so once 25 old stopped rows exist, new writes
/// are never fetched again and never sent. Everything else is handled correctly.
public struct PagedFetchRow: Sendable, Equatable {
    public enum Status: String, Sendable { case queued, sent, stopped }
    public var rowid: Int
    public var op: String
    public var idempotencyKey: String
    public var payload: Data
    public var createdAt: Date
    public var attemptCount: Int
    public var retryAt: Date?
    public var status: Status
    public var stopReason: String?
}

public final class PagedFetchRowTable: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [PagedFetchRow] = []
    private var lastRowID = 0
    public init() {}
    public func insert(op: String, key: String, payload: Data, createdAt: Date) {
        lock.lock(); defer { lock.unlock() }
        lastRowID += 1
        rows.append(PagedFetchRow(rowid: lastRowID, op: op, idempotencyKey: key, payload: payload, createdAt: createdAt,
                          attemptCount: 0, retryAt: nil, status: .queued, stopReason: nil))
    }
    public func fetch(where predicate: (PagedFetchRow) -> Bool, limit: Int? = nil) -> [PagedFetchRow] {
        lock.lock(); defer { lock.unlock() }
        let matching = rows.filter(predicate).sorted { $0.rowid < $1.rowid }
        return limit.map { Array(matching.prefix($0)) } ?? matching
    }
    public func update(rowid: Int, _ change: (inout PagedFetchRow) -> Void) {
        lock.lock(); defer { lock.unlock() }
        if let i = rows.firstIndex(where: { $0.rowid == rowid }) { change(&rows[i]) }
    }
    public func delete(rowid: Int) { lock.lock(); defer { lock.unlock() }; rows.removeAll { $0.rowid == rowid } }
}

public actor PagedFetchOutbox {
    public typealias Transport = @Sendable (_ key: String, _ payload: Data) async throws -> Int
    private let table: PagedFetchRowTable
    private let transport: Transport
    private let now: @Sendable () -> Date
    private var sending: Set<Int> = []
    public private(set) var diagnostics: [String] = []
    static let fetchLimit = 25

    public init(table: PagedFetchRowTable, transport: @escaping Transport, now: @escaping @Sendable () -> Date) {
        self.table = table; self.transport = transport; self.now = now
    }

    public func enqueue(op: String, payload: Data) {
        table.insert(op: op, key: UUID().uuidString, payload: payload, createdAt: now())
    }

    public func sync() async {
        var triedThisSync: Set<Int> = []
        while !Task.isCancelled {
            let t = now()
            // BUG: should be `$0.status == .queued`, so stopped rows fill the page.
            let page = table.fetch(where: { $0.status != .sent }, limit: Self.fetchLimit)
            guard let row = page.first(where: {
                $0.status == .queued && !sending.contains($0.rowid) && !triedThisSync.contains($0.rowid)
                    && ($0.retryAt ?? .distantPast) <= t
            }) else { return }
            sending.insert(row.rowid); triedThisSync.insert(row.rowid)
            table.update(rowid: row.rowid) { $0.attemptCount += 1 }
            let result: Result<Int, any Error>
            do { result = .success(try await transport(row.idempotencyKey, row.payload)) } catch { result = .failure(error) }
            sending.remove(row.rowid)
            record(result, for: row)
        }
    }

    private func record(_ result: Result<Int, any Error>, for row: PagedFetchRow) {
        let answeredAt = now()
        func retry() {
            table.update(rowid: row.rowid) {
                $0.retryAt = answeredAt.addingTimeInterval(min(10, 0.5 * pow(2, Double(min($0.attemptCount, 10)))))
            }
        }
        switch result {
        case .failure: retry(); diagnostics.append("row \(row.rowid): no answer")
        case .success(let code) where (200..<300).contains(code):
            table.update(rowid: row.rowid) { $0.status = .sent }; diagnostics.append("row \(row.rowid): sent")
        case .success(let code) where code == 408 || code == 429 || code >= 500:
            retry(); diagnostics.append("row \(row.rowid): \(code)")
        case .success(409):
            table.update(rowid: row.rowid) { $0.status = .stopped; $0.stopReason = "409 conflict" }
            diagnostics.append("row \(row.rowid): conflict")
        case .success(let code) where (400..<500).contains(code):
            table.update(rowid: row.rowid) { $0.status = .stopped; $0.stopReason = "HTTP \(code)" }
            diagnostics.append("row \(row.rowid): stopped \(code)")
        case .success:
            retry()
        }
    }
}
