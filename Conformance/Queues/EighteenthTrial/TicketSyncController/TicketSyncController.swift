// TicketSyncController.swift — app code (target: HelpdeskCore)
//
// Support tickets created offline by field technicians. The main-actor controller the ticket
// screens talk to: `submitTicket` writes the outbox row (key and request bytes included) in one
// transaction before it returns; `sync()` claims due rows one at a time with a lease stored in
// the row and POSTs them through URLSession's async API. Failed rows wait for a due time kept
// in the row; a retry timer on the injected clock runs the next sync when the earliest is due.
//
// The API stamps offline-created tickets with the device's creation time: the request body is
// the ticket's JSON object plus "client_created_at" (UTC, ISO 8601, en_US_POSIX), built once at
// submit and stored as bytes, so every resend carries the first attempt's bytes.

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@MainActor
public final class TicketSyncController {
    /// URLSession.shared.data(for:) in the app.
    public typealias Load = @Sendable (URLRequest) async throws -> (Data, URLResponse)

    public enum SubmitError: Error { case notAJSONObject }

    enum Column {
        static let label = "label", key = "idempotency_key", body = "request_body"
        static let createdAt = "created_at", attempts = "attempts", state = "state"
        static let nextAttemptAt = "next_attempt_at", lastDelay = "last_delay"
        static let lastError = "last_error", leaseOwner = "lease_owner", leaseUntil = "lease_until"
    }
    enum State { static let pending = "pending", blocked = "blocked", sent = "sent" }
    nonisolated static let table = "outbox"
    static let retryableClientErrors: Set<Int> = [408, 429]
    static let maxDelay: Double = 90
    static let leaseDuration: Double = 120          // twice URLRequest.timeoutInterval

    private let store: RowStore
    private let endpoint: URL
    private let load: Load
    private let now: @Sendable () -> Date
    private let clock: any Clock<Duration>
    /// Identifies this process in the rows it leases; a lease held by another token belongs to
    /// a process that has ended (the app is the only writer of this database).
    private let processToken = UUID().uuidString
    private var retryTimer: Task<Void, Never>?
    private var timerDue: Double?
    public private(set) var log: [String] = []

    public init(store: RowStore, endpoint: URL, load: @escaping Load,
                now: @escaping @Sendable () -> Date = { Date() },
                clock: any Clock<Duration> = ContinuousClock()) {
        self.store = store
        self.endpoint = endpoint
        self.load = load
        self.now = now
        self.clock = clock
    }

    // MARK: Submitting

    public func submitTicket(_ ticketJSON: Data, reference: String) throws {
        guard var object = try JSONSerialization.jsonObject(with: ticketJSON) as? [String: Any] else {
            throw SubmitError.notAJSONObject
        }
        let created = now()
        object["client_created_at"] = Self.timestamp(created)
        let body = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        _ = store.write { tx in
            tx.insert(into: Self.table, [
                Column.label: .text(reference),
                Column.key: .text("tkt-" + UUID().uuidString.lowercased()),
                Column.body: .blob(body),
                Column.createdAt: .real(created.timeIntervalSince1970),
                Column.attempts: .integer(0),
                Column.state: .text(State.pending),
                Column.nextAttemptAt: .real(0),
                Column.lastDelay: .real(0),
                Column.lastError: .null,
                Column.leaseOwner: .null,
                Column.leaseUntil: .real(0),
            ])
        }
        note("queued \(reference)")
    }

    // MARK: Syncing

    /// Sends every due row. Syncs may overlap (foreground, pull-to-refresh, the retry timer):
    /// each claims its next row in a transaction, so no row is sent by two of them at once.
    public func sync() async {
        while let (rowid, row) = claimNextDue() {
            await send(rowid: rowid, row: row)
        }
        armRetryTimer()
    }

    private func claimNextDue() -> (Int64, RowStore.Row)? {
        let now = self.now().timeIntervalSince1970
        let token = processToken
        return store.write { tx in
            let due = tx.select(from: Self.table) { row in
                guard row[Column.state]?.text == State.pending,
                      (row[Column.nextAttemptAt]?.real ?? 0) <= now else { return false }
                let owner = row[Column.leaseOwner]?.text
                return owner == nil || owner != token || (row[Column.leaseUntil]?.real ?? 0) < now
            }
            guard let first = due.first else { return nil }
            let attempts = (first.row[Column.attempts]?.integer ?? 0) + 1
            tx.update(Self.table, rowid: first.rowid, set: [
                Column.leaseOwner: .text(token),
                Column.leaseUntil: .real(now + Self.leaseDuration),
                Column.attempts: .integer(attempts),
            ])
            return (first.rowid, first.row)
        }
    }

    private func send(rowid: Int64, row: RowStore.Row) async {
        let label = row[Column.label]?.text ?? "?"
        var request = URLRequest(url: endpoint, timeoutInterval: 60)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue(row[Column.key]?.text, forHTTPHeaderField: "Idempotency-Key")
        request.httpBody = row[Column.body]?.blob
        let status: Int
        do {
            let (_, response) = try await load(request)
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
        } catch {
            return retryLater(rowid: rowid, label: label, reason: "network error (\(type(of: error)))")
        }
        switch status {
        case 200..<300:
            finish(rowid, state: State.sent, error: nil)
            note("sent \(label) (HTTP \(status))")
        case 409:
            finish(rowid, state: State.blocked, error: "HTTP 409: key already used with another body")
            note("blocked \(label): HTTP 409")
        case _ where Self.retryableClientErrors.contains(status):
            retryLater(rowid: rowid, label: label, reason: "HTTP \(status)")
        case 400..<500:
            finish(rowid, state: State.blocked, error: "HTTP \(status)")
            note("blocked \(label): HTTP \(status)")
        default:                                       // 5xx, 3xx, no HTTP response
            retryLater(rowid: rowid, label: label, reason: "HTTP \(status)")
        }
    }

    private func finish(_ rowid: Int64, state: String, error: String?) {
        store.write { tx in
            tx.update(Self.table, rowid: rowid, set: [
                Column.state: .text(state), Column.lastError: error.map { .text($0) } ?? .null,
                Column.leaseOwner: .null,
            ])
        }
    }

    /// Decorrelated jitter: a random delay between 1 s and three times the previous one,
    /// never above 90 s. Counted from the answer.
    private func retryLater(rowid: Int64, label: String, reason: String) {
        let answeredAt = now().timeIntervalSince1970
        let delay = store.write { tx -> Double in
            let previous = tx.select(from: Self.table) { _ in true }
                .first { $0.rowid == rowid }?.row[Column.lastDelay]?.real ?? 0
            let delay = min(Self.maxDelay, Double.random(in: 1...max(1, previous * 3)))
            tx.update(Self.table, rowid: rowid, set: [
                Column.nextAttemptAt: .real(answeredAt + delay), Column.lastDelay: .real(delay),
                Column.lastError: .text(reason), Column.leaseOwner: .null,
            ])
            return delay
        }
        note("retry \(label) in \(Int(delay.rounded(.up))) s (\(reason))")
    }

    /// One timer for the earliest due row that no sync of this process is sending; a timer
    /// that already fired is never cancelled (it is running a sync).
    private func armRetryTimer() {
        let now = self.now().timeIntervalSince1970
        let token = processToken
        let earliest = store.read { tx in
            tx.select(from: Self.table) { row in
                row[Column.state]?.text == State.pending
                    && !(row[Column.leaseOwner]?.text == token && (row[Column.leaseUntil]?.real ?? 0) >= now)
            }
            .compactMap { $0.row[Column.nextAttemptAt]?.real }.min()
        }
        guard let earliest else { return }
        if let armed = timerDue, armed > now, armed <= earliest { return }   // a sooner one is set
        retryTimer?.cancel()
        timerDue = earliest
        let milliseconds = max(0, Int(((earliest - now) * 1000).rounded(.up))) + 1
        let clock = self.clock
        retryTimer = Task { [weak self] in
            do { try await clock.sleep(for: .milliseconds(milliseconds)) } catch { return }
            guard let self else { return }
            self.retryTimer = nil
            self.timerDue = nil
            await self.sync()
        }
    }

    // MARK: Helpers

    private static func timestamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS'Z'"
        return formatter.string(from: date)
    }

    private func note(_ line: String) {
        log.append(line)
        if log.count > 400 { log.removeFirst(log.count - 400) }
    }
}
