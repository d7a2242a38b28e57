// From an outside trial (round four): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation

// MARK: - A tiny JSON value, as GraphQL clients keep for "variables"

public enum MutationJSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([MutationJSONValue])
    case object([String: MutationJSONValue])

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([MutationJSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: MutationJSONValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let b): try c.encode(b)
        case .int(let i): try c.encode(i)
        case .double(let d): try c.encode(d)
        case .string(let s): try c.encode(s)
        case .array(let a): try c.encode(a)
        case .object(let o): try c.encode(o)
        }
    }
}

/// The body a GraphQL mutation is posted with.
public struct MutationEnvelope: Codable, Sendable {
    public struct Variables: Codable, Sendable { public var input: [String: MutationJSONValue] }
    public var query: String
    public var variables: Variables
}

// MARK: - Persisted record

public struct MutationEnvelopeRecord: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable { case pending, needsAttention }
    public var id: UUID
    public var label: String               // the caller's name for this action
    public var clientMutationId: String    // idempotency key, inside the body
    public var body: Data                  // envelope bytes, built once at enqueue
    public var state: State
    public var attempts: Int
    public var createdAt: Date
    public var nextAttemptAt: Date
    public var lastError: String?
}

public struct DueTimeBackoffPolicy: Sendable {
    public var base: TimeInterval
    public var cap: TimeInterval
    public init(base: TimeInterval = 1, cap: TimeInterval = 32) { self.base = base; self.cap = cap }
    /// Delay after the n-th failed attempt (n >= 1): base, 2·base, 4·base, … capped.
    public func delay(afterAttempt n: Int) -> TimeInterval {
        let exponent = Double(min(max(n - 1, 0), 40))
        return min(cap, base * pow(2, exponent))
    }
}

public enum MutationEnvelopeError: Error { case inputIsNotAnObject }

/// Offline outbox for GraphQL mutations. One JSON file holds every record.
public actor MutationEnvelopeOutbox {
    public typealias Post = @Sendable (_ body: Data) async throws -> (status: Int, body: Data)

    private let fileURL: URL
    private let post: Post
    private let now: @Sendable () -> Date
    private let backoff: DueTimeBackoffPolicy
    private var records: [MutationEnvelopeRecord]
    private var inFlight: Set<UUID> = []
    public private(set) var log: [String] = []

    public init(directory: URL, backoff: DueTimeBackoffPolicy = DueTimeBackoffPolicy(),
                now: @escaping @Sendable () -> Date = Date.init, post: @escaping Post) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.fileURL = Self.fileURL(in: directory)
        self.post = post
        self.now = now
        self.backoff = backoff
        self.records = try Self.load(from: fileURL)
    }

    static func fileURL(in directory: URL) -> URL { directory.appendingPathComponent("graphql-outbox.json") }

    static func load(from url: URL) throws -> [MutationEnvelopeRecord] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        return try decoder.decode([MutationEnvelopeRecord].self, from: Data(contentsOf: url))
    }

    /// Read the stored outbox without a live instance (debug screens, tests).
    public static func storedRecords(in directory: URL) throws -> [MutationEnvelopeRecord] {
        try load(from: fileURL(in: directory))
    }

    private func save() throws {
        let data = try JSONEncoder().encode(records)
        try data.write(to: fileURL, options: .atomic)
    }

    @discardableResult
    public func enqueue(mutation: String, input: Data, label: String) throws -> UUID {
        guard case .object(var fields) = try JSONDecoder().decode(MutationJSONValue.self, from: input) else {
            throw MutationEnvelopeError.inputIsNotAnObject
        }
        let key = UUID().uuidString
        fields["clientMutationId"] = .string(key)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = try encoder.encode(MutationEnvelope(query: mutation, variables: .init(input: fields)))
        let created = now()
        let record = MutationEnvelopeRecord(
            id: UUID(), label: label, clientMutationId: key, body: body, state: .pending,
            attempts: 0, createdAt: created, nextAttemptAt: created, lastError: nil)
        records.append(record)
        try save()
        log.append("enqueued \(label)")
        return record.id
    }

    /// One sync: sends every due mutation once, oldest first.
    public func flush() async throws {
        var attemptedThisFlush: Set<UUID> = []
        while !Task.isCancelled {
            let t = now()
            guard let next = records
                .filter({ $0.state == .pending && $0.nextAttemptAt <= t
                          && !inFlight.contains($0.id) && !attemptedThisFlush.contains($0.id) })
                .min(by: { $0.createdAt < $1.createdAt })
            else { return }
            guard let i = records.firstIndex(where: { $0.id == next.id }) else { continue }
            inFlight.insert(next.id)          // lease taken before the first await
            attemptedThisFlush.insert(next.id)
            records[i].attempts += 1
            do { try save() } catch { inFlight.remove(next.id); throw error }
            log.append("sending \(next.label) attempt \(records[i].attempts)")

            let outcome: Result<Int, any Error>
            do {
                let reply = try await post(next.body)
                outcome = .success(reply.status)
            } catch {
                outcome = .failure(error)
            }
            inFlight.remove(next.id)
            try handle(outcome, for: next.id)
        }
    }

    private func handle(_ outcome: Result<Int, any Error>, for id: UUID) throws {
        guard let i = records.firstIndex(where: { $0.id == id }) else { return }
        let label = records[i].label
        switch outcome {
        case .success(let status) where (200..<300).contains(status):
            records.remove(at: i)
            log.append("\(label) delivered (\(status))")
        case .success(409):
            records[i].state = .needsAttention
            records[i].lastError = "HTTP 409: clientMutationId already used with other input"
            log.append("\(label) stopped: 409 conflict")
        case .success(let status) where (400..<500).contains(status) && status != 408 && status != 429:
            records[i].state = .needsAttention
            records[i].lastError = "HTTP \(status): rejected by server"
            log.append("\(label) stopped: \(status)")
        case .success(let status):
            scheduleRetry(at: i, reason: "HTTP \(status)")
        case .failure(let error):
            scheduleRetry(at: i, reason: "transport error \(type(of: error))")
        }
        try save()
    }

    private func scheduleRetry(at i: Int, reason: String) {
        let delay = backoff.delay(afterAttempt: records[i].attempts)
        records[i].nextAttemptAt = now().addingTimeInterval(delay)
        records[i].lastError = reason
        log.append("\(records[i].label) will retry in \(delay)s after \(reason)")
    }
}
