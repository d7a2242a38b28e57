import Foundation

/// A row of `pending_mutations`: one user edit waiting to reach the server.
struct JournalMutation: Codable, Sendable, Equatable {
    enum State: String, Codable, Sendable {
        case queued   // will be sent when due
        case parked   // the server refused it; shown in Settings ▸ Unsynced changes
    }

    var label: String              // what the caller called it ("note.create", a client ID)
    var idempotencyKey: String
    var payload: Data              // the exact bytes we POST
    var createdAt: Date
    var state: State
    var attempts: Int
    var consecutiveFailures: Int
    var notBefore: Date?
    var lastError: String?
}

/// The offline write journal behind the notes editor. Every save goes into the
/// table first; `sync()` (called on foreground, on reachability changes and
/// from the background refresh task) posts what is due, oldest first.
actor MutationJournal {
    typealias Post = @Sendable (_ idempotencyKey: String, _ payload: Data) async throws -> Int

    static let baseDelay: TimeInterval = 2
    static let maxDelay: TimeInterval = 120
    static let requeueEvery = 10
    static let batchSize = 25

    private let table: RowTable<JournalMutation>
    private let post: Post
    private let now: @Sendable () -> Date
    /// Rows a running sync is posting. Process memory on purpose: if we are
    /// killed mid-request, the next launch must send the row again.
    private var sending: Set<Int64> = []
    private(set) var log: [String] = []

    init(directory: URL, post: @escaping Post, now: @escaping @Sendable () -> Date = Date.init) throws {
        self.table = try RowTable(directory: directory)
        self.post = post
        self.now = now
    }

    /// Read-only view of the table, for the Settings screen and for tests.
    static func rows(in directory: URL) throws -> [(rowID: Int64, row: JournalMutation)] {
        try RowTable<JournalMutation>(directory: directory).selectAll().sorted { $0.rowID < $1.rowID }
    }

    @discardableResult
    func enqueue(label: String, payload: Data) throws -> Int64 {
        let created = now()
        return try table.insert { _ in
            JournalMutation(label: label, idempotencyKey: UUID().uuidString, payload: payload,
                            createdAt: created, state: .queued, attempts: 0,
                            consecutiveFailures: 0, notBefore: nil, lastError: nil)
        }
    }

    /// One sync: posts every due row once, oldest first.
    func sync() async {
        let clockNow = now()
        let due = ((try? table.selectAll()) ?? [])
            .filter { $0.row.state == .queued && !sending.contains($0.rowID) }
            .filter { ($0.row.notBefore ?? .distantPast) <= clockNow }
            .sorted { ($0.row.createdAt, $0.rowID) < ($1.row.createdAt, $1.rowID) }
            .prefix(Self.batchSize)
        for (rowID, _) in due { sending.insert(rowID) }
        for (rowID, row) in due {
            await send(row, rowID: rowID)
            sending.remove(rowID)
        }
    }

    private func send(_ snapshot: JournalMutation, rowID: Int64) async {
        var row = snapshot
        row.attempts += 1
        try? table.write(row, rowID: rowID)
        do {
            let status = try await post(row.idempotencyKey, row.payload)
            switch status {
            case 200..<300:
                try? table.delete(rowID: rowID)
                log.append("synced \(row.label) (row \(rowID)) after \(row.attempts) attempt(s)")
            case 408, 429, 500..<600:
                retryLater(&row, rowID: rowID, reason: "HTTP \(status)")
            case 409:
                park(&row, rowID: rowID, reason: "HTTP 409: key already used with another body")
            case 400..<500:
                park(&row, rowID: rowID, reason: "HTTP \(status): refused by server")
            default:
                retryLater(&row, rowID: rowID, reason: "unexpected HTTP \(status)")
            }
        } catch {
            retryLater(&row, rowID: rowID, reason: "no answer (\(type(of: error)))")
        }
    }

    private func retryLater(_ row: inout JournalMutation, rowID: Int64, reason: String) {
        let answeredAt = now()
        row.consecutiveFailures += 1
        let exponent = Double(min(row.consecutiveFailures - 1, 16))
        let delay = min(Self.maxDelay, Self.baseDelay * pow(2, exponent))
        row.notBefore = answeredAt.addingTimeInterval(delay)
        row.lastError = reason
        // A row that keeps failing goes to the back of the line: sync() reads
        // rows oldest-first in batches, and one poisoned row must not be the
        // first thing every background refresh spends its 30 s on. created_at
        // is only our local sort column (the payload goes out byte for byte),
        // so re-stamping it re-orders the journal without a schema migration.
        if row.consecutiveFailures.isMultiple(of: Self.requeueEvery) {
            row.createdAt = answeredAt
        }
        try? table.write(row, rowID: rowID)
        log.append("\(row.label) (row \(rowID)): \(reason), retry in \(Int(delay)) s")
    }

    private func park(_ row: inout JournalMutation, rowID: Int64, reason: String) {
        row.state = .parked
        row.lastError = reason
        try? table.write(row, rowID: rowID)
        log.append("\(row.label) (row \(rowID)) needs attention: \(reason)")
    }
}
