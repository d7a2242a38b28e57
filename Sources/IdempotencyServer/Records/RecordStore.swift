import Foundation

/// The idempotency records and per-key attempt counts, shared by every connection.
///
/// The first request for a key reserves it, writes the record to the journal (if any) outside
/// the lock, then publishes it. A second request for a reserved key either waits for the
/// first to finish (seed profile: it then sees the record) or is told the key is still being
/// processed (IETF profile). Either way one key makes exactly one record.
///
/// Its mutable fields are read and written only while `condition` is locked. It is a
/// condition variable rather than the kit's `Locked` because a second request for a key
/// waits on it.
final class RecordStore: @unchecked Sendable {
    /// The result of submitting a body under a key.
    enum Outcome {
        /// This request created the record.
        case committed(StoredRecord, attempts: Int, recordCount: Int)
        /// The key already had a record with an equal body.
        case replayed(StoredRecord, attempts: Int, recordCount: Int)
        /// The key already had a record with a different body; it was not changed.
        case mismatch(StoredRecord, attempts: Int)
        /// Another request for this key is being committed right now (IETF profile only).
        case inProgress(attempts: Int)
        /// The journal could not be written; nothing was committed.
        case notDurable(String)
    }

    /// A snapshot for the observation endpoints.
    struct Snapshot {
        var records: [StoredRecord]
        var attempts: [String: Int]
    }

    private let condition = NSCondition()
    private var records: [String: StoredRecord] = [:]
    private var attempts: [String: Int] = [:]
    private var reserved: Set<String> = []
    private var nextID = 1
    private let journal: Journal?

    /// Creates a store holding `replayed` records, appending new ones to `journal`.
    init(journal: Journal?, replayed: [StoredRecord]) {
        self.journal = journal
        for record in replayed {
            records[record.key] = record
            nextID = max(nextID, record.id + 1)
        }
    }

    /// Submits `body` under `key`, counting the attempt first (as the seed script does).
    /// - Parameter rejectInProgress: `true` for the IETF profile (answer "in progress" instead
    ///   of waiting for a concurrent first request).
    func submit(key: String, body: JSONValue, rejectInProgress: Bool) -> Outcome {
        condition.lock()
        attempts[key, default: 0] += 1
        while true {
            if let record = records[key] {
                let count = attempts[key, default: 0]
                let total = records.count
                condition.unlock()
                return record.body == body
                    ? .replayed(record, attempts: count, recordCount: total)
                    : .mismatch(record, attempts: count)
            }
            guard reserved.contains(key) else { break }
            if rejectInProgress {
                let count = attempts[key, default: 0]
                condition.unlock()
                return .inProgress(attempts: count)
            }
            condition.wait()
        }
        reserved.insert(key)
        let record = StoredRecord(key: key, id: nextID, body: body)
        nextID += 1
        condition.unlock()

        var failure: String?
        do {
            try journal?.append(record)
        } catch {
            failure = "\(error)"
        }

        condition.lock()
        defer { condition.unlock() }
        reserved.remove(key)
        condition.broadcast()
        if let failure { return .notDurable(failure) }
        records[key] = record
        return .committed(record, attempts: attempts[key, default: 0], recordCount: records.count)
    }

    /// Every record (in ID order) and every attempt count.
    func snapshot() -> Snapshot {
        condition.withLock {
            Snapshot(records: records.values.sorted { $0.id < $1.id }, attempts: attempts)
        }
    }

    /// Forgets every record and count, and empties the journal. Waits for commits in progress.
    func reset() throws {
        condition.lock()
        defer { condition.unlock() }
        while !reserved.isEmpty { condition.wait() }
        try journal?.removeAll()
        records = [:]
        attempts = [:]
        nextID = 1
    }
}
