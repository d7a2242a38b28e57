// FieldReportOutbox.swift — app code (target: FieldInspector)
//
// Offline outbox for inspection reports written on site (basements, plant rooms, tunnels).
// One JSON file per report under Application Support/ReportOutbox. The idempotency key and the
// exact request bytes are minted at enqueue and written with the report before anything is sent.
// Sending happens from `flush()`, which the app calls on launch, on foreground, after every
// enqueue and from a BGProcessingTask; concurrent flushes share the work through a send lease.

import Foundation

public actor FieldReportOutbox {

    public struct StoredReport: Codable, Sendable, Equatable {
        public enum State: String, Codable, Sendable { case pending, needsAttention }

        public let id: UUID
        /// The caller's reference for the report (the draft's ID in the app).
        public let label: String
        public let idempotencyKey: String
        /// Request bytes, built once at enqueue and never re-encoded.
        public let body: Data
        public let createdAt: Date
        public var attempts: Int
        public var state: State
        public var lastError: String?
        /// When the next attempt may start, in seconds of the device's monotonic clock.
        /// Monotonic on purpose: a user who moves the date forward in Settings must not make
        /// every retry due at once, and one who moves it back must not stall the queue.
        public var nextAttemptUptime: TimeInterval
    }

    /// Sends one report; returns the HTTP status. Throws on transport failures
    /// (offline, timeout, connection lost): the outcome of such a request is unknown.
    public typealias Post = @Sendable (_ idempotencyKey: String, _ body: Data) async throws -> Int

    public static let retryableClientErrors: Set<Int> = [408, 429]
    static let baseDelay: TimeInterval = 2
    static let maxDelay: TimeInterval = 120

    private let directory: URL
    private let post: Post
    private let now: @Sendable () -> Date
    private let uptime: @Sendable () -> TimeInterval
    /// Reports with a request on the wire from this process. Process memory on purpose: it
    /// vanishes with the process, so a report in flight at a crash is sent again on relaunch.
    private var sending: Set<UUID> = []
    public private(set) var log: [String] = []

    public init(
        directory: URL,
        post: @escaping Post,
        now: @escaping @Sendable () -> Date = { Date() },
        uptime: @escaping @Sendable () -> TimeInterval = { ProcessInfo.processInfo.systemUptime }
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.post = post
        self.now = now
        self.uptime = uptime
    }

    // MARK: Enqueue

    /// Stores the report (key and bytes included) and returns once it is on disk.
    @discardableResult
    public func enqueue(_ body: Data, label: String) throws -> UUID {
        let report = StoredReport(
            id: UUID(), label: label, idempotencyKey: UUID().uuidString.lowercased(), body: body,
            createdAt: now(), attempts: 0, state: .pending, lastError: nil, nextAttemptUptime: 0)
        try save(report)
        record("queued \(label)")
        return report.id
    }

    // MARK: Sending

    /// Sends every report that is due, one at a time, oldest first. A flush that starts while
    /// another runs sends the reports the other has not leased; neither sends one twice.
    public func flush() async {
        while let report = nextDue() {
            sending.insert(report.id)            // lease before the first suspension point
            await attempt(report)
            sending.remove(report.id)
        }
    }

    private func nextDue() -> StoredReport? {
        let clock = uptime()
        return (try? Self.storedReports(in: directory))?
            .filter { $0.state == .pending && !sending.contains($0.id) }
            .filter { $0.nextAttemptUptime <= clock }
            .min { $0.createdAt < $1.createdAt }
    }

    private func attempt(_ report: StoredReport) async {
        var report = report
        report.attempts += 1
        try? save(report)
        do {
            let status = try await post(report.idempotencyKey, report.body)
            guard var current = load(report.id) else { return }
            switch status {
            case 200..<300:
                try? FileManager.default.removeItem(at: fileURL(report.id))
                record("sent \(report.label) (attempt \(report.attempts), HTTP \(status))")
            case 409:
                current.state = .needsAttention
                current.lastError = "HTTP 409: the server holds another report under this key"
                try? save(current)
                record("stopped \(report.label): HTTP 409")
            case _ where Self.retryableClientErrors.contains(status):
                scheduleRetry(current, reason: "HTTP \(status)")
            case 400..<500:
                current.state = .needsAttention
                current.lastError = "HTTP \(status): rejected by the server"
                try? save(current)
                record("stopped \(report.label): HTTP \(status)")
            default:                               // 5xx, redirects, anything unexpected
                scheduleRetry(current, reason: "HTTP \(status)")
            }
        } catch {
            // Offline, timed out, connection dropped, cancelled: the server may or may not
            // have the report. Keep it, same key and bytes, and try again later.
            if let current = load(report.id) {
                scheduleRetry(current, reason: Self.describe(error))
            }
        }
    }

    private func scheduleRetry(_ report: StoredReport, reason: String) {
        var report = report
        let delay = Self.retryDelay(afterAttempt: report.attempts)
        report.nextAttemptUptime = uptime() + delay
        report.lastError = reason
        try? save(report)
        record("retry \(report.label) in \(Int(delay)) s after \(reason)")
    }

    /// Capped exponential backoff: 2, 4, 8, … seconds, never more than two minutes.
    static func retryDelay(afterAttempt attempt: Int) -> TimeInterval {
        let exponent = Double(min(max(attempt - 1, 0), 16))
        return min(maxDelay, baseDelay * pow(2, exponent))
    }

    private static func describe(_ error: any Error) -> String {
        if error is CancellationError { return "cancelled" }
        return "transport error (\(type(of: error)))"
    }

    // MARK: Storage

    private func fileURL(_ id: UUID) -> URL {
        directory.appendingPathComponent(id.uuidString).appendingPathExtension("json")
    }

    private func save(_ report: StoredReport) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(report).write(to: fileURL(report.id), options: .atomic)
    }

    private func load(_ id: UUID) -> StoredReport? {
        guard let data = try? Data(contentsOf: fileURL(id)) else { return nil }
        return try? JSONDecoder().decode(StoredReport.self, from: data)
    }

    private func record(_ line: String) {
        log.append(line)
        if log.count > 500 { log.removeFirst(log.count - 500) }
    }

    /// Every stored report, for the outbox screen and for diagnostics.
    public static func storedReports(in directory: URL) throws -> [StoredReport] {
        let files = try FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: nil)
        let decoder = JSONDecoder()
        return files.filter { $0.pathExtension == "json" }.compactMap { url in
            (try? Data(contentsOf: url)).flatMap { try? decoder.decode(StoredReport.self, from: $0) }
        }
    }
}
