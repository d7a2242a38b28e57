import Foundation

/// One expense upload as it goes over the wire.
struct ExpenseUpload: Sendable {
    var idempotencyKey: String
    var payload: Data
}

/// An expense waiting to be uploaded, as stored in `outbox.json`.
struct ExpenseRecord: Codable, Sendable, Equatable {
    enum State: String, Codable, Sendable {
        case waiting
        case needsReview
    }

    let id: UUID
    /// The caller's reference ("op-1", the draft's ID, …).
    let reference: String
    let idempotencyKey: String
    let payload: Data
    let createdAt: Date
    var state: State = .waiting
    var attempts: Int = 0
    var nextAttemptAt: Date
    var problem: String?
    var reportedAsStuck: Bool = false
}

struct ExpenseRetryPolicy: Sendable {
    var firstDelay: TimeInterval = 2
    var longestDelay: TimeInterval = 300
    /// Pending this long, an expense is flagged to support once.
    var stuckAfter: TimeInterval = 24 * 60 * 60

    func delay(afterAttempt attempt: Int) -> TimeInterval {
        min(longestDelay, firstDelay * pow(2, Double(max(attempt - 1, 0))))
    }
}

/// Uploads expense reports captured offline. All state is confined to a private serial queue and
/// written to `outbox.json` (atomically) before any callback runs; retry times are stored with the
/// records, so any later `flush` (foreground, background refresh, connectivity change) sends what
/// is due. Callers get completion handlers on an unspecified queue.
final class ExpenseOutbox: @unchecked Sendable {
    typealias Transport = @Sendable (ExpenseUpload, @escaping @Sendable (Result<Int, any Error>) -> Void) -> Void

    private let queue = DispatchQueue(label: "com.example.expenses.outbox")
    private let fileURL: URL
    private let sensitiveFields: Set<String>
    private let policy: ExpenseRetryPolicy
    private let now: @Sendable () -> Date
    private let transport: Transport

    // Confined to `queue`.
    private var records: [ExpenseRecord]
    private var uploading: Set<UUID> = []
    private var logLines: [String] = []

    init(
        directory: URL,
        sensitiveFields: Set<String> = ["card", "cvv"],
        policy: ExpenseRetryPolicy = ExpenseRetryPolicy(),
        now: @escaping @Sendable () -> Date,
        transport: @escaping Transport
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.fileURL = directory.appendingPathComponent("outbox.json")
        self.sensitiveFields = sensitiveFields
        self.policy = policy
        self.now = now
        self.transport = transport
        self.records = try Self.load(from: fileURL)
    }

    // MARK: Public API

    func add(reference: String, payload: Data, completion: @escaping @Sendable (Result<UUID, any Error>) -> Void) {
        queue.async {
            let created = self.now()
            let record = ExpenseRecord(
                id: UUID(), reference: reference, idempotencyKey: UUID().uuidString, payload: payload,
                createdAt: created, nextAttemptAt: created)
            self.records.append(record)
            do {
                try self.save()
            } catch {
                self.records.removeLast()
                completion(.failure(error))
                return
            }
            self.logLines.append("queued \(reference)")
            completion(.success(record.id))
        }
    }

    /// Uploads every due expense that is not already uploading; calls `completion` once all of
    /// those uploads have been answered (at once if there is nothing to send).
    func flush(completion: @escaping @Sendable () -> Void) {
        queue.async {
            let current = self.now()
            self.reportStuckExpenses(at: current)

            let due = self.records.indices.filter {
                self.records[$0].state == .waiting && self.records[$0].nextAttemptAt <= current
                    && !self.uploading.contains(self.records[$0].id)
            }
            guard !due.isEmpty else {
                completion()
                return
            }
            for index in due {
                self.records[index].attempts += 1
                self.uploading.insert(self.records[index].id)
            }
            do {
                try self.save()
            } catch {
                self.logLines.append("could not save attempts: \(error)")
            }

            let group = DispatchGroup()
            for record in due.map({ self.records[$0] }) {
                group.enter()
                self.logLines.append("uploading \(record.reference) (attempt \(record.attempts))")
                self.transport(ExpenseUpload(idempotencyKey: record.idempotencyKey, payload: record.payload)) { result in
                    self.queue.async {
                        self.uploading.remove(record.id)
                        self.handle(result, for: record.id)
                        group.leave()
                    }
                }
            }
            group.notify(queue: self.queue) { completion() }
        }
    }

    /// Runs after everything already queued on the outbox (tests, app termination).
    func waitUntilIdle() {
        queue.sync {}
    }

    var log: [String] {
        queue.sync { logLines }
    }

    // MARK: Answers (on `queue`)

    private func handle(_ result: Result<Int, any Error>, for id: UUID) {
        guard let index = records.firstIndex(where: { $0.id == id }) else { return }
        let reference = records[index].reference

        switch result {
        case .success(let status) where (200..<300).contains(status):
            records.remove(at: index)
            logLines.append("\(reference) uploaded (HTTP \(status))")

        case .success(let status) where status == 409:
            stop(at: index, problem: "HTTP 409: the idempotency key was already used with a different expense")

        case .success(let status) where status == 408 || status == 429 || (500..<600).contains(status):
            scheduleRetry(at: index, reason: "HTTP \(status)")

        case .success(let status):
            let request = Redactor.redact(records[index].payload, hiding: sensitiveFields)
            stop(at: index, problem: "HTTP \(status): rejected; request \(request)")

        case .failure(let error):
            scheduleRetry(at: index, reason: "no answer (\(error))")
        }

        do {
            try save()
        } catch {
            logLines.append("could not save \(reference): \(error)")
        }
    }

    private func scheduleRetry(at index: Int, reason: String) {
        let delay = policy.delay(afterAttempt: records[index].attempts)
        records[index].nextAttemptAt = now().addingTimeInterval(delay)
        logLines.append("\(records[index].reference): \(reason); next try in \(delay) s")
    }

    private func stop(at index: Int, problem: String) {
        records[index].state = .needsReview
        records[index].problem = problem
        logLines.append("\(records[index].reference) needs review: \(problem)")
    }

    /// Flags expenses that have been waiting for a day, once each, with what support needs to
    /// help the user re-enter them.
    private func reportStuckExpenses(at current: Date) {
        var changed = false
        for index in records.indices where records[index].state == .waiting && !records[index].reportedAsStuck {
            guard current.timeIntervalSince(records[index].createdAt) >= policy.stuckAfter else { continue }
            let record = records[index]
            logLines.append(
                "support: \(record.reference) still not uploaded after \(record.attempts) attempts; "
                    + "payload \(Redactor.redact(record.payload))")
            records[index].reportedAsStuck = true
            changed = true
        }
        if changed {
            do { try save() } catch { logLines.append("could not save stuck flags: \(error)") }
        }
    }

    // MARK: Storage

    private func save() throws {
        let data = try JSONEncoder().encode(records)
        try data.write(to: fileURL, options: .atomic)
    }

    private static func load(from url: URL) throws -> [ExpenseRecord] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try JSONDecoder().decode([ExpenseRecord].self, from: Data(contentsOf: url))
    }

    /// The stored records (the "Pending expenses" screen reads these without starting an outbox).
    static func storedRecords(in directory: URL) throws -> [ExpenseRecord] {
        try load(from: directory.appendingPathComponent("outbox.json"))
    }
}
