import Foundation

// MARK: - The "file"

/// A file-like store of JSON rows keyed by row ID. In the app this wraps a file in the app group
/// container; it outlives any `DetachedWorkerOutbox` instance (a crash drops the outbox, not
/// this object).
final class JSONRowFile: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [String: Data] = [:]

    init() {}

    func write(_ row: Data, id: String) {
        lock.lock()
        defer { lock.unlock() }
        rows[id] = row
    }

    func readAll() -> [String: Data] {
        lock.lock()
        defer { lock.unlock() }
        return rows
    }
}

// MARK: - Rows

struct WorkItemRow: Codable, Sendable {
    enum Status: String, Codable, Sendable {
        case queued
        case sending   // claimed by a worker until `leaseUntil`
        case sent
        case blocked   // needs attention; never sent again automatically
    }

    let rowID: String
    /// The caller's reference (the kit's operation ID in tests).
    let reference: String
    let idempotencyKey: String
    /// Bytes of the first attempt; stored once, sent as-is on every attempt.
    let payload: Data
    let createdAt: Date
    var status: Status
    var attempts: Int
    var nextAttemptAt: Date
    var leaseUntil: Date?
    var blockedReason: String?
}

// MARK: - In-memory store, written through to the file

/// NSLock-protected cache of the rows. Every change is encoded and written to the row file under
/// the same lock, so what a crash leaves behind is exactly what was last decided.
final class WorkItemStore: @unchecked Sendable {
    private let lock = NSLock()
    private let file: JSONRowFile
    private var items: [String: WorkItemRow]

    init(file: JSONRowFile) throws {
        self.file = file
        self.items = try Self.decodeRows(in: file)
    }

    static func decodeRows(in file: JSONRowFile) throws -> [String: WorkItemRow] {
        let decoder = JSONDecoder()
        var result: [String: WorkItemRow] = [:]
        for (id, data) in file.readAll() {
            result[id] = try decoder.decode(WorkItemRow.self, from: data)
        }
        return result
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Caller holds the lock.
    private func writeThrough(_ row: WorkItemRow) throws {
        let data = try JSONEncoder().encode(row)
        file.write(data, id: row.rowID)
        items[row.rowID] = row
    }

    func insert(_ row: WorkItemRow) throws {
        try locked { try writeThrough(row) }
    }

    /// Atomically picks the oldest due row (queued and due, or a claim whose lease ran out),
    /// marks it `sending` with a lease, counts the attempt and writes it, all under one lock hold.
    func claimNextDue(at moment: Date, leaseDuration: TimeInterval) throws -> WorkItemRow? {
        try locked {
            let claimable = items.values.filter { row in
                switch row.status {
                case .queued: return row.nextAttemptAt <= moment
                case .sending: return (row.leaseUntil ?? .distantPast) <= moment
                case .sent, .blocked: return false
                }
            }
            guard var row = claimable.min(by: { ($0.nextAttemptAt, $0.createdAt) < ($1.nextAttemptAt, $1.createdAt) })
            else { return nil }
            row.status = .sending
            row.leaseUntil = moment.addingTimeInterval(leaseDuration)
            row.attempts += 1
            try writeThrough(row)
            return row
        }
    }

    func update(_ rowID: String, _ change: (inout WorkItemRow) -> Void) throws {
        try locked {
            guard var row = items[rowID] else { return }
            change(&row)
            try writeThrough(row)
        }
    }

    var all: [WorkItemRow] {
        locked { Array(items.values) }
    }
}

// MARK: - The outbox

/// `sync()` hands the work to a detached utility-priority worker that sends due items with at
/// most two requests in flight. Each item is claimed in the store (status `sending` + lease)
/// right before its own request, so two workers (a foreground resume and a background refresh)
/// never send one item twice.
final class DetachedWorkerOutbox: Sendable {
    struct Reply: Sendable {
        let status: Int
        let body: Data
    }

    typealias Transport = @Sendable (_ headers: [String: String], _ body: Data) async throws -> Reply

    static let keyHeader = "Idempotency-Key"
    static let maxConcurrentRequests = 2
    /// Longer than the transport's 60 s request timeout, so a lease never runs out under a live request.
    static let leaseDuration: TimeInterval = 90
    static let retryBase: TimeInterval = 2
    static let retryCap: TimeInterval = 60

    private let store: WorkItemStore
    private let transport: Transport
    private let now: @Sendable () -> Date

    init(file: JSONRowFile, transport: @escaping Transport, now: @escaping @Sendable () -> Date = Date.init) throws {
        self.store = try WorkItemStore(file: file)
        self.transport = transport
        self.now = now
    }

    // MARK: App API

    /// Stores the write with its key; returns the row ID once it is in the row file.
    @discardableResult
    func submit(reference: String, payload: Data) throws -> String {
        let stamp = now()
        let row = WorkItemRow(
            rowID: UUID().uuidString, reference: reference, idempotencyKey: UUID().uuidString,
            payload: payload, createdAt: stamp, status: .queued, attempts: 0, nextAttemptAt: stamp,
            leaseUntil: nil, blockedReason: nil)
        try store.insert(row)
        return row.rowID
    }

    /// Starts a background worker; the handle lets callers (BGTask handlers, tests) wait for it.
    @discardableResult
    func sync() -> Task<Void, Never> {
        Task.detached(priority: .utility) { [self] in
            do {
                try await self.sendDueItems()
            } catch {
                // The row file could not be written; the next sync starts over from the file.
            }
        }
    }

    /// `sync()` and wait for its worker (cancelling the wait cancels the worker).
    func syncAndWait() async {
        let worker = sync()
        await withTaskCancellationHandler {
            await worker.value
        } onCancel: {
            worker.cancel()
        }
    }

    var rows: [WorkItemRow] { store.all }

    // MARK: Worker

    private func sendDueItems() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var running = 0
            while !Task.isCancelled {
                if running < Self.maxConcurrentRequests,
                   let claimed = try store.claimNextDue(at: now(), leaseDuration: Self.leaseDuration) {
                    group.addTask { try await self.send(claimed) }
                    running += 1
                    continue
                }
                guard running > 0 else { break }
                _ = try await group.next()
                running -= 1
            }
            try await group.waitForAll()
        }
    }

    private func send(_ item: WorkItemRow) async throws {
        let headers = [Self.keyHeader: item.idempotencyKey, "Content-Type": "application/json"]
        let outcome: Result<Reply, any Error>
        do {
            outcome = .success(try await transport(headers, item.payload))
        } catch {
            outcome = .failure(error)
        }
        let answeredAt = now()
        let retryAt = answeredAt.addingTimeInterval(Self.retryDelay(afterAttempt: item.attempts))
        try store.update(item.rowID) { row in
            row.leaseUntil = nil
            switch outcome {
            case .success(let reply) where (200..<300).contains(reply.status):
                row.status = .sent
            case .success(let reply) where Self.stopsTask(reply.status):
                row.status = .blocked
                row.blockedReason = "Rejected by the server with HTTP \(reply.status)"
            case .success, .failure:
                // 5xx, 408, 429, 3xx, a dropped connection, a timeout, a cancelled request: the
                // outcome is unknown or "later". Same key, same bytes, after the backoff.
                row.status = .queued
                row.nextAttemptAt = retryAt
            }
        }
    }

    static func stopsTask(_ status: Int) -> Bool {
        (400..<500).contains(status) && status != 408 && status != 429
    }

    /// Exponential with jitter (75–100 %), capped at `retryCap`; always positive.
    static func retryDelay(afterAttempt attempt: Int) -> TimeInterval {
        let exponent = Double(min(max(attempt - 1, 0), 30))
        let ceiling = min(retryCap, retryBase * pow(2, exponent))
        return ceiling * Double.random(in: 0.75...1.0)
    }
}
