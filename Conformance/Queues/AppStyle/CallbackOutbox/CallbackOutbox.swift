import Foundation
import Dispatch

public struct CallbackOutboxRequest: Sendable {
    public var path: String
    public var method: String
    public var headers: [String: String]
    public var body: Data
}

/// Completion-handler transport, URLSession-dataTask style. The completion may be
/// called on any thread (or synchronously).
public protocol CallbackOutboxTransport: Sendable {
    func send(
        _ request: CallbackOutboxRequest,
        completion: @escaping @Sendable (Result<(status: Int, body: Data), any Error>) -> Void
    )
}

public struct CallbackOutboxRecord: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case pending, needsAttention }

    public let id: UUID
    public let idempotencyKey: String
    public let body: Data
    public let createdAt: Date
    public var status: Status
    public var attempts: Int
    /// The record is not sent before this moment (backoff after a failure).
    public var notBefore: Date
    public var diagnostic: String?
}

/// Class-based outbox (not an actor). All mutable state is confined to a private
/// serial queue. Storage: one JSON file per record in `directory`, read
/// synchronously in `init`. Backoff is a due time (`notBefore`), never a wait:
/// min(maxDelay, baseDelay * 2^(attempts-1)) after each unknown/retryable outcome.
public final class CallbackOutbox: @unchecked Sendable {
    public static let sensitiveFields: Set<String> = ["password", "token", "iban"]

    private let queue = DispatchQueue(label: "com.example.CallbackOutbox.state")
    private let directory: URL
    private let transport: any CallbackOutboxTransport
    private let now: @Sendable () -> Date
    private let baseDelay: TimeInterval
    private let maxDelay: TimeInterval

    // Confined to `queue`.
    private var records: [UUID: CallbackOutboxRecord] = [:]
    private var inFlight: Set<UUID> = []

    public init(
        directory: URL,
        transport: any CallbackOutboxTransport,
        now: @escaping @Sendable () -> Date,
        baseDelay: TimeInterval = 1,
        maxDelay: TimeInterval = 120
    ) throws {
        self.directory = directory
        self.transport = transport
        self.now = now
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay

        let fm = FileManager.default
        try fm.createDirectory(at: directory, withIntermediateDirectories: true)
        for url in try fm.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        where url.pathExtension == "record" {
            let record = try JSONDecoder().decode(CallbackOutboxRecord.self, from: Data(contentsOf: url))
            records[record.id] = record
        }
    }

    // MARK: Submit

    @discardableResult
    public func submit(body: Data) throws -> UUID {
        try queue.sync { try insertRecord(body: body) }
    }

    public func submit(body: Data, completion: @escaping @Sendable (Result<UUID, any Error>) -> Void) {
        queue.async {
            completion(Result { try self.insertRecord(body: body) })
        }
    }

    /// Must run on `queue`. The record is on disk before this returns.
    private func insertRecord(body: Data) throws -> UUID {
        dispatchPrecondition(condition: .onQueue(queue))
        let created = now()
        let record = CallbackOutboxRecord(
            id: UUID(),
            idempotencyKey: UUID().uuidString,
            body: body,
            createdAt: created,
            status: .pending,
            attempts: 0,
            notBefore: created,
            diagnostic: nil
        )
        try write(record)
        records[record.id] = record
        return record.id
    }

    public func storedRecords() -> [CallbackOutboxRecord] {
        queue.sync {
            records.values.sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
        }
    }

    // MARK: Flush

    /// Sends every due, pending, not-in-flight record once. `completion` runs on the
    /// outbox's private queue after all responses (or failures) are handled.
    public func flush(completion: @escaping @Sendable () -> Void) {
        queue.async {
            let moment = self.now()
            let due = self.records.values
                .filter { $0.status == .pending && $0.notBefore <= moment && !self.inFlight.contains($0.id) }
                .sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }

            let group = DispatchGroup()
            for var record in due {
                record.attempts += 1
                do {
                    try self.write(record)
                } catch {
                    continue // could not persist the attempt; leave it for the next flush
                }
                self.records[record.id] = record
                self.inFlight.insert(record.id)

                let request = CallbackOutboxRequest(
                    path: "/items",
                    method: "POST",
                    headers: ["Content-Type": "application/json", "Idempotency-Key": record.idempotencyKey],
                    body: record.body
                )
                let id = record.id
                group.enter()
                self.transport.send(request) { result in
                    self.queue.async {
                        self.handle(id, result)
                        self.inFlight.remove(id)
                        group.leave()
                    }
                }
            }
            group.notify(queue: self.queue) {
                completion()
            }
        }
    }

    public func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            flush { continuation.resume() }
        }
    }

    // MARK: Private (on `queue`)

    private func handle(_ id: UUID, _ result: Result<(status: Int, body: Data), any Error>) {
        dispatchPrecondition(condition: .onQueue(queue))
        guard var record = records[id] else { return }

        switch result {
        case .failure:
            scheduleRetry(&record)
        case .success(let response):
            switch response.status {
            case 200..<300:
                try? FileManager.default.removeItem(at: fileURL(id))
                records[id] = nil
                return
            case 409:
                record.status = .needsAttention
                record.diagnostic = "HTTP 409: idempotency key \(record.idempotencyKey) conflicts with an earlier, different body"
            case 408, 429:
                scheduleRetry(&record)
            case 400..<500:
                record.status = .needsAttention
                record.diagnostic = "HTTP \(response.status): rejected by server, not retried"
            default:
                scheduleRetry(&record)
            }
        }
        try? write(record)
        records[id] = record
    }

    private func scheduleRetry(_ record: inout CallbackOutboxRecord) {
        let exponent = Double(min(max(record.attempts - 1, 0), 40))
        record.notBefore = now().addingTimeInterval(min(maxDelay, baseDelay * pow(2, exponent)))
    }

    private func fileURL(_ id: UUID) -> URL {
        directory.appendingPathComponent(id.uuidString).appendingPathExtension("record")
    }

    private func write(_ record: CallbackOutboxRecord) throws {
        try JSONEncoder().encode(record).write(to: fileURL(record.id), options: .atomic)
    }
}
