import Foundation

public struct RedactingOutboxEntry: Sendable, Equatable {
    public enum Status: Sendable, Equatable { case pending, needsAttention }

    public let id: UUID
    public let idempotencyKey: String
    public let body: Data
    public let createdAt: Date
    public var status: Status
    public var attempts: Int
    public var diagnostic: String?
}

public struct RedactingOutboxRequest: Sendable {
    public let url: URL
    public let httpMethod: String
    public let allHTTPHeaderFields: [String: String]
    public let httpBody: Data
}

public struct RedactingOutboxResponse: Sendable {
    public let statusCode: Int
    public let body: Data
    public init(statusCode: Int, body: Data = Data()) {
        self.statusCode = statusCode
        self.body = body
    }
}

public protocol RedactingOutboxNetwork: Sendable {
    func data(for request: RedactingOutboxRequest) async throws -> RedactingOutboxResponse
}

/// In-memory "disk". Keep it across a simulated crash.
public final class RedactingOutboxStorage: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [RedactingOutboxEntry] = []
    public init() {}

    public func snapshot() -> [RedactingOutboxEntry] {
        lock.lock(); defer { lock.unlock() }
        return entries
    }

    func insert(_ e: RedactingOutboxEntry) {
        lock.lock(); defer { lock.unlock() }
        entries.append(e)
    }

    func replace(_ e: RedactingOutboxEntry) {
        lock.lock(); defer { lock.unlock() }
        if let i = entries.firstIndex(where: { $0.id == e.id }) { entries[i] = e }
    }

    func delete(_ id: UUID) {
        lock.lock(); defer { lock.unlock() }
        entries.removeAll { $0.id == id }
    }

    func entry(_ id: UUID) -> RedactingOutboxEntry? {
        lock.lock(); defer { lock.unlock() }
        return entries.first { $0.id == id }
    }
}

/// Outbox that writes a diagnostic line for every send, response and failure.
/// Bodies are logged only after masking the values of `sensitiveFields`
/// (matched case-insensitively at any depth); the raw server response body is
/// never logged because servers echo request fields back in error payloads.
public actor RedactingOutbox {
    public static let sensitiveFields: Set<String> = ["password", "token", "cardNumber", "cvv"]
    private static let mask = "<redacted>"

    private let storage: RedactingOutboxStorage
    private let network: any RedactingOutboxNetwork
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let logSink: @Sendable (String) -> Void
    private let retryCap: Duration
    private let endpoint = URL(string: "https://api.example.com/items")!

    private var inFlight: Set<UUID> = []
    public private(set) var diagnostics: [String] = []

    public init(
        storage: RedactingOutboxStorage,
        network: any RedactingOutboxNetwork,
        clock: any Clock<Duration>,
        now: @escaping @Sendable () -> Date,
        retryCap: Duration = .seconds(60),
        logSink: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.storage = storage
        self.network = network
        self.clock = clock
        self.now = now
        self.retryCap = retryCap
        self.logSink = logSink
    }

    @discardableResult
    public func submit(_ body: Data) -> UUID {
        let entry = RedactingOutboxEntry(
            id: UUID(),
            idempotencyKey: UUID().uuidString,
            body: body,
            createdAt: now(),
            status: .pending,
            attempts: 0,
            diagnostic: nil
        )
        storage.insert(entry)
        log("queued op=\(entry.id.uuidString) key=\(entry.idempotencyKey) body=\(Self.redacted(body))")
        return entry.id
    }

    public func entries() -> [RedactingOutboxEntry] { storage.snapshot() }

    /// One attempt per pending entry per flush; entries that failed before wait
    /// min(retryCap, 1 s * 2^(attempts-1)) on the clock first.
    public func flush() async {
        for candidate in storage.snapshot() where candidate.status == .pending {
            guard !inFlight.contains(candidate.id) else { continue }
            inFlight.insert(candidate.id)
            defer { inFlight.remove(candidate.id) }

            if candidate.attempts > 0 {
                let wait = backoff(candidate.attempts)
                log("backoff op=\(candidate.id.uuidString) wait=\(wait)")
                do {
                    try await clock.sleep(for: wait)
                } catch {
                    log("flush cancelled op=\(candidate.id.uuidString)")
                    return
                }
            }
            await attempt(candidate.id)
        }
    }

    private func attempt(_ id: UUID) async {
        guard var entry = storage.entry(id), entry.status == .pending else { return }
        entry.attempts += 1
        storage.replace(entry)

        let request = RedactingOutboxRequest(
            url: endpoint,
            httpMethod: "POST",
            allHTTPHeaderFields: [
                "Content-Type": "application/json",
                "Idempotency-Key": entry.idempotencyKey,
            ],
            httpBody: entry.body
        )
        log("send op=\(id.uuidString) key=\(entry.idempotencyKey) attempt=\(entry.attempts) body=\(Self.redacted(entry.body))")

        let response: RedactingOutboxResponse
        do {
            response = try await network.data(for: request)
        } catch {
            log("failure op=\(id.uuidString) attempt=\(entry.attempts) error=\(type(of: error)); outcome unknown, will retry with same key")
            return
        }
        log("response op=\(id.uuidString) status=\(response.statusCode) bytes=\(response.body.count)")

        let code = response.statusCode
        switch code {
        case 200..<300:
            storage.delete(id)
            log("done op=\(id.uuidString)")
        case 408, 429:
            log("retryable status=\(code) op=\(id.uuidString)")
        case 409:
            markNeedsAttention(&entry, "409 Conflict: key \(entry.idempotencyKey) already used with a different body \(Self.redacted(entry.body))")
        case 400..<500:
            markNeedsAttention(&entry, "HTTP \(code) rejected body \(Self.redacted(entry.body))")
        default:
            log("retryable status=\(code) op=\(id.uuidString)")
        }
    }

    private func markNeedsAttention(_ entry: inout RedactingOutboxEntry, _ reason: String) {
        entry.status = .needsAttention
        entry.diagnostic = reason
        storage.replace(entry)
        log("needs-attention op=\(entry.id.uuidString) \(reason)")
    }

    private func log(_ line: String) {
        diagnostics.append(line)
        logSink(line)
    }

    private func backoff(_ failures: Int) -> Duration {
        let exponent = min(max(failures - 1, 0), 24)
        return min(retryCap, .seconds(1) * (1 << exponent))
    }

    // MARK: Redaction

    static func redacted(_ body: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            return "<\(body.count) bytes, not JSON, omitted>"
        }
        let masked = scrub(object)
        guard JSONSerialization.isValidJSONObject(masked),
              let data = try? JSONSerialization.data(withJSONObject: masked, options: [.sortedKeys]),
              let text = String(data: data, encoding: .utf8)
        else {
            return "<\(body.count) bytes omitted>"
        }
        return text
    }

    private static let loweredSensitive: Set<String> = Set(sensitiveFields.map { $0.lowercased() })

    private static func scrub(_ value: Any) -> Any {
        if let dict = value as? [String: Any] {
            var out: [String: Any] = [:]
            for (key, inner) in dict {
                out[key] = loweredSensitive.contains(key.lowercased()) ? mask : scrub(inner)
            }
            return out
        }
        if let array = value as? [Any] {
            return array.map(scrub)
        }
        return value
    }
}
