import Foundation

/// What the scan outbox needs from the network layer.
protocol ScanUploadAPI: Sendable {
    /// POSTs one scan; returns the HTTP status, throws for a transport failure.
    func upload(idempotencyKey: String, payload: Data) async throws -> Int
}

/// Offline outbox of a warehouse scanner app: every barcode scan is a row in the local database
/// the moment it is scanned, and a sync uploads the due rows concurrently (a task group), each
/// under a claim taken in one transaction before any upload starts. A scan the server refuses
/// (409 or another final 4xx) stays in the table as "needs attention" for the shift lead's
/// screen; retries keep a due time in the row. Time comes only from the injected `now`.
final class ScanUploadQueue: Sendable {
    struct Policy: Sendable {
        var base: TimeInterval = 2
        var cap: TimeInterval = 60
        var retryableStatuses: Set<Int> = [408, 429]
        /// A sync never holds more than one page of rows in memory.
        var pageSize = 50

        func delay(afterAttempt attempt: Int) -> TimeInterval {
            min(cap, base * Double(1 << min(max(attempt - 1, 0), 16)))
        }
    }

    /// What the toolbar badge shows after a sync.
    struct SyncSummary: Sendable, Equatable {
        var uploaded: Int
        var needingAttention: Int
    }

    private let database: ScanOutboxDatabase
    private let api: any ScanUploadAPI
    private let now: @Sendable () -> Date
    private let policy: Policy
    /// This process's connection: its claims are its own.
    private let connectionID = UUID().uuidString

    init(database: ScanOutboxDatabase, api: any ScanUploadAPI, now: @escaping @Sendable () -> Date,
         policy: Policy = Policy()) {
        self.database = database
        self.api = api
        self.now = now
        self.policy = policy
    }

    /// Stores the scan with its key (committed before this returns).
    @discardableResult
    func recordScan(label: String, payload: Data) async -> Int64 {
        await database.insert(
            label: label, idempotencyKey: UUID().uuidString, payload: payload, createdAt: now())
    }

    /// One sync: claims every due scan, then uploads them together.
    @discardableResult
    func sync() async -> SyncSummary {
        let now = self.now()
        let openRows = await database.select(where: { $0.status != .done }, limit: policy.pageSize)
        let due = openRows.filter { $0.status == .queued && $0.dueAt <= now }  // BUG: picked from the LIMITed page of open rows, which stopped rows can fill
        let claimed = await database.claim(due.map(\.rowID), owner: connectionID, dueBy: now)

        await withTaskGroup(of: Void.self) { group in
            for row in claimed {
                group.addTask { await self.upload(row) }
            }
        }
        return SyncSummary(
            uploaded: claimed.count,
            needingAttention: openRows.count(where: { $0.status == .needsAttention }))
    }

    private func upload(_ row: ScanOutboxDatabase.Row) async {
        let status: Int
        do {
            status = try await api.upload(idempotencyKey: row.idempotencyKey, payload: row.payload)
        } catch is CancellationError {
            await database.release(row.rowID, owner: connectionID)
            return
        } catch {
            // Lost connection or timeout: the server may or may not have the scan.
            await retryLater(row, reason: String(describing: error))
            return
        }

        switch status {
        case 200..<300:
            await database.finish(row.rowID, owner: connectionID) {
                $0.status = .done
                $0.attempts += 1
                $0.lastError = nil
            }
        case 409:
            await stop(row, reason: "HTTP 409: this key was already used with another scan")
        case _ where policy.retryableStatuses.contains(status) || (500..<600).contains(status):
            await retryLater(row, reason: "HTTP \(status)")
        default:
            await stop(row, reason: "HTTP \(status): not retried automatically")
        }
    }

    private func retryLater(_ row: ScanOutboxDatabase.Row, reason: String) async {
        let attempts = row.attempts + 1
        let dueAt = now().addingTimeInterval(policy.delay(afterAttempt: attempts))
        await database.finish(row.rowID, owner: connectionID) {
            $0.attempts = attempts
            $0.dueAt = dueAt
            $0.lastError = reason
        }
    }

    private func stop(_ row: ScanOutboxDatabase.Row, reason: String) async {
        await database.finish(row.rowID, owner: connectionID) {
            $0.status = .needsAttention
            $0.attempts += 1
            $0.lastError = reason
        }
    }
}
