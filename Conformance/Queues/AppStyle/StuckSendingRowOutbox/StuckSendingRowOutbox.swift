import Foundation

public struct StuckSendingRow: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        case pending
        case sending
        case needsAttention
    }

    public let id: UUID
    public let idempotencyKey: String
    public let body: Data
    public let createdAt: Date
    public var status: Status
    public var attempts: Int
    public var diagnostic: String?
}

public struct StuckSendingRowRequest: Sendable {
    public let path: String
    public let headers: [String: String]
    public let body: Data
}

public protocol StuckSendingRowTransport: Sendable {
    /// HTTP status; throws on disconnect / timeout.
    func send(_ request: StuckSendingRowRequest) async throws -> Int
}

/// File-backed outbox: one `<id>.row.json` file per row in `directory`. A row is
/// marked `sending` on disk right before its request goes out (so the UI and
/// support tooling can see what is in flight), and goes back to `pending` on an
/// unknown / retryable outcome.
public actor StuckSendingRowOutbox {
    public static let sensitiveFields: Set<String> = ["password", "token", "cvv"]

    private let directory: URL
    private let transport: any StuckSendingRowTransport
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let maxDelay: Duration
    /// Rows this instance currently has on the wire.
    private var inFlight: Set<UUID> = []

    public init(
        directory: URL,
        transport: any StuckSendingRowTransport,
        clock: any Clock<Duration>,
        now: @escaping @Sendable () -> Date,
        maxDelay: Duration = .seconds(60)
    ) throws {
        self.directory = directory
        self.transport = transport
        self.clock = clock
        self.now = now
        self.maxDelay = maxDelay
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    @discardableResult
    public func submit(body: Data) throws -> UUID {
        let row = StuckSendingRow(
            id: UUID(),
            idempotencyKey: UUID().uuidString,
            body: body,
            createdAt: now(),
            status: .pending,
            attempts: 0,
            diagnostic: nil
        )
        try write(row)
        return row.id
    }

    public func rows() throws -> [StuckSendingRow] {
        try readAll().sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }

    /// One attempt per sendable row; rows that failed before wait
    /// min(maxDelay, 1 s * 2^(attempts-1)) on the clock first.
    public func flush() async throws {
        for candidate in try rows() where isSendable(candidate) {
            guard let row = try read(candidate.id), isSendable(row) else { continue }
            inFlight.insert(row.id)
            defer { inFlight.remove(row.id) }

            if row.attempts > 0 {
                do { try await clock.sleep(for: backoff(row.attempts)) } catch { return }
            }
            try await sendOnce(row.id)
        }
    }

    private func isSendable(_ row: StuckSendingRow) -> Bool {
        guard !inFlight.contains(row.id) else { return false }
        return row.status == .pending // BUG: a row left `.sending` by a crashed process is never picked again (should also accept `.sending` rows not in this instance's inFlight)
    }

    private func sendOnce(_ id: UUID) async throws {
        guard var row = try read(id), row.status != .needsAttention else { return }
        row.status = .sending
        row.attempts += 1
        try write(row)

        let status: Int
        do {
            status = try await transport.send(StuckSendingRowRequest(
                path: "/items",
                headers: ["Idempotency-Key": row.idempotencyKey, "Content-Type": "application/json"],
                body: row.body
            ))
        } catch {
            row.status = .pending
            try write(row)
            return
        }

        switch status {
        case 200..<300:
            try FileManager.default.removeItem(at: url(id))
        case 409:
            row.status = .needsAttention
            row.diagnostic = "409 Conflict: key \(row.idempotencyKey) was already used for a different body"
            try write(row)
        case 408, 429:
            row.status = .pending
            try write(row)
        case 400..<500:
            row.status = .needsAttention
            row.diagnostic = "HTTP \(status): rejected, not resent"
            try write(row)
        default:
            row.status = .pending
            try write(row)
        }
    }

    private func backoff(_ failures: Int) -> Duration {
        let shift = min(max(failures - 1, 0), 24)
        return min(maxDelay, .seconds(1) * (1 << shift))
    }

    // MARK: Files

    private func url(_ id: UUID) -> URL {
        directory.appendingPathComponent("\(id.uuidString).row.json")
    }

    private func write(_ row: StuckSendingRow) throws {
        try JSONEncoder().encode(row).write(to: url(row.id), options: .atomic)
    }

    private func read(_ id: UUID) throws -> StuckSendingRow? {
        let fileURL = url(id)
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        return try JSONDecoder().decode(StuckSendingRow.self, from: Data(contentsOf: fileURL))
    }

    private func readAll() throws -> [StuckSendingRow] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasSuffix(".row.json") }
            .map { try JSONDecoder().decode(StuckSendingRow.self, from: Data(contentsOf: $0)) }
    }
}
