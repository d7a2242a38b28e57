import Foundation

/// A JSON value as the app's form layer produces it.
public enum DictionaryBodyValue: Codable, Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([DictionaryBodyValue])
    case object([String: DictionaryBodyValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([DictionaryBodyValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: DictionaryBodyValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .string(let s): try c.encode(s)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .bool(let b): try c.encode(b)
        case .null: try c.encodeNil()
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}

public struct DictionaryBodyOutboxRecord: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case pending, needsAttention }

    public let id: UUID
    public let idempotencyKey: String
    public let fields: [String: DictionaryBodyValue]
    public let createdAt: Date
    public var status: Status
    public var attempts: Int
    /// Bytes produced by the first encode. Persisted before the first send and
    /// reused verbatim for every resend.
    public var wireBody: Data?
    public var diagnostic: String?
}

public struct DictionaryBodyOutboxRequest: Sendable {
    public let path: String
    public let headers: [String: String]
    public let body: Data
}

public protocol DictionaryBodyOutboxTransport: Sendable {
    /// Returns the HTTP status. Throws on network loss / timeout.
    func post(_ request: DictionaryBodyOutboxRequest) async throws -> Int
}

/// In-memory stand-in for the app's persistent store.
public final class DictionaryBodyOutboxStore: @unchecked Sendable {
    private let lock = NSLock()
    private var records: [UUID: DictionaryBodyOutboxRecord] = [:]
    public init() {}

    public var all: [DictionaryBodyOutboxRecord] {
        lock.lock(); defer { lock.unlock() }
        return records.values.sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }
    func get(_ id: UUID) -> DictionaryBodyOutboxRecord? {
        lock.lock(); defer { lock.unlock() }
        return records[id]
    }
    func put(_ r: DictionaryBodyOutboxRecord) {
        lock.lock(); defer { lock.unlock() }
        records[r.id] = r
    }
    func remove(_ id: UUID) {
        lock.lock(); defer { lock.unlock() }
        records[id] = nil
    }
}

/// Keeps the body as a dictionary and encodes it with `JSONEncoder` at send time.
/// The encoded bytes are stored on the record the first time, so retries (also
/// after a relaunch) send exactly the bytes of the first attempt.
public actor DictionaryBodyOutbox {
    public static let sensitiveFields: Set<String> = ["password", "token", "cvv"]

    private let store: DictionaryBodyOutboxStore
    private let transport: any DictionaryBodyOutboxTransport
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Date
    private let maxDelay: Duration
    private var busy: Set<UUID> = []

    public init(
        store: DictionaryBodyOutboxStore,
        transport: any DictionaryBodyOutboxTransport,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        now: @escaping @Sendable () -> Date,
        maxDelay: Duration = .seconds(120)
    ) {
        self.store = store
        self.transport = transport
        self.sleep = sleep
        self.now = now
        self.maxDelay = maxDelay
    }

    @discardableResult
    public func submit(fields: [String: DictionaryBodyValue]) -> UUID {
        let record = DictionaryBodyOutboxRecord(
            id: UUID(),
            idempotencyKey: UUID().uuidString,
            fields: fields,
            createdAt: now(),
            status: .pending,
            attempts: 0,
            wireBody: nil,
            diagnostic: nil
        )
        store.put(record)
        return record.id
    }

    /// Convenience for callers holding a JSON object body.
    @discardableResult
    public func submit(jsonObject: Data) throws -> UUID {
        let fields = try JSONDecoder().decode([String: DictionaryBodyValue].self, from: jsonObject)
        return submit(fields: fields)
    }

    public func records() -> [DictionaryBodyOutboxRecord] { store.all }

    /// Each pending record gets one attempt per flush; a record that failed before
    /// first waits min(maxDelay, 1 s << (attempts-1)).
    public func flush() async throws {
        for record in store.all where record.status == .pending {
            guard !busy.contains(record.id) else { continue }
            busy.insert(record.id)
            defer { busy.remove(record.id) }

            if record.attempts > 0 {
                do {
                    try await sleep(delay(record.attempts))
                } catch {
                    return
                }
            }
            try await sendOnce(record.id)
        }
    }

    private func sendOnce(_ id: UUID) async throws {
        guard var record = store.get(id), record.status == .pending else { return }

        let body: Data
        if let existing = record.wireBody {
            body = existing
        } else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            body = try encoder.encode(record.fields)
            record.wireBody = body
        }
        record.attempts += 1
        store.put(record) // bytes + attempt count are on disk before the request leaves

        let status: Int
        do {
            status = try await transport.post(DictionaryBodyOutboxRequest(
                path: "/items",
                headers: ["Idempotency-Key": record.idempotencyKey, "Content-Type": "application/json"],
                body: body
            ))
        } catch {
            return // unknown outcome; retried later with the same key and bytes
        }

        switch status {
        case 200..<300:
            store.remove(id)
        case 409:
            record.status = .needsAttention
            record.diagnostic = "Conflict: idempotency key \(record.idempotencyKey) was used with a different body (fields: \(record.fields.keys.sorted().joined(separator: ", ")))"
            store.put(record)
        case 408, 429:
            return
        case 400..<500:
            record.status = .needsAttention
            record.diagnostic = "Server rejected item with HTTP \(status) (fields: \(record.fields.keys.sorted().joined(separator: ", ")))"
            store.put(record)
        default:
            return
        }
    }

    private func delay(_ failures: Int) -> Duration {
        let shift = min(failures - 1, 20)
        return min(maxDelay, .seconds(1 << shift))
    }
}
