import ConformanceKit
import Foundation

/// The kit's in-process server model: records kept by idempotency key, with the source
/// document's semantics and fault injection.
///
/// Same key and same body return the original result; same key and a different body are
/// rejected with 409 (422 in the IETF profile) and the stored record is not overwritten; a
/// missing key or a body that is not JSON is a 400 and nothing is recorded. The ledger counts
/// records and attempts per key, so a contract can say "the server holds exactly one record".
///
/// ```swift
/// let ledger = IdempotencyLedger()
/// let first = ledger.receive(request, fault: .commitThen503)   // record 1 committed, answer 503
/// let second = ledger.receive(request)                          // 200 {"id":1,"attempts":2,...}
/// ledger.recordCount                                            // 1
/// ```
public final class IdempotencyLedger: Sendable {
    /// One stored record.
    public struct Record: Hashable, Sendable {
        /// The record ID, from 1 in order of creation.
        public let id: Int
        /// The idempotency key it was stored under.
        public let key: String
        /// The body it was stored with.
        public let body: Data
    }

    /// What the server did with one request.
    public struct Reply: Hashable, Sendable {
        /// The answer that reaches the client, or `nil` when the connection dropped.
        public let response: WriteResponse?
        /// The transport error the client sees when no answer arrives.
        public let error: TransportError?
        /// The record this request created, if it created one.
        public let committed: Record?
        /// What happened, for the transcript: `commit record 1 then answer 503`.
        public let summary: String
    }

    /// The records by key, their keys in order of creation, and the requests per key.
    fileprivate struct Store {
        var records: [String: Record] = [:]
        var order: [String] = []
        var attemptsByKey: [String: Int] = [:]
    }

    private let store = Locked(rawValue: Store())

    /// What 409 and 422 mean to this server.
    public let profile: ConflictProfile

    /// Creates an empty server.
    /// - Parameter profile: The source document's (default) or the IETF draft's.
    public init(profile: ConflictProfile = .sourceDocument) {
        self.profile = profile
    }

    /// How many records the server holds.
    public var recordCount: Int { store.withLock { $0.records.count } }

    /// Every record, in order of creation.
    public var allRecords: [Record] {
        store.withLock { store in store.order.compactMap { store.records[$0] } }
    }

    /// How many requests arrived with `key` (faults included).
    public func attempts(forKey key: String) -> Int { store.withLock { $0.attemptsByKey[key] ?? 0 } }

    /// The record stored under `key`, if any.
    public func record(forKey key: String) -> Record? { store.withLock { $0.records[key] } }

    /// Receives one request and decides the answer.
    /// - Parameters:
    ///   - request: What the client sent.
    ///   - fault: The fault to inject; ``ServerFault/none`` for plain semantics.
    /// - Returns: The reply, with a summary for the transcript.
    public func receive(_ request: WriteRequest, fault: ServerFault = .none) -> Reply {
        store.withLock { $0.receive(request, fault: fault, profile: profile) }
    }

    /// The body as canonical JSON (sorted keys), so bodies compare as the seed compares parsed
    /// payloads; `nil` when the body is not JSON.
    static func canonical(_ body: Data) -> Data? {
        CanonicalFormCache.shared.entry(.ledger, of: body) { CanonicalFormCache.Entry(body: uncachedCanonical(body)) }.body
    }

    private static func uncachedCanonical(_ body: Data) -> Data? {
        guard !body.isEmpty,
            let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        else { return nil }
        return try? JSONSerialization.data(
            withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    }
}

extension IdempotencyLedger.Store {
    typealias Reply = IdempotencyLedger.Reply
    typealias Record = IdempotencyLedger.Record

    /// Decides the answer to one request and records what it changes.
    mutating func receive(
        _ request: WriteRequest, fault: ServerFault, profile: ConflictProfile
    ) -> Reply {
        guard let key = request.idempotencyKey, !key.isEmpty,
            let canonical = IdempotencyLedger.canonical(request.body)
        else {
            return Reply(
                response: WriteResponse(statusCode: 400), error: nil, committed: nil,
                summary: "answer 400 (missing key or body not JSON; nothing recorded)")
        }
        attemptsByKey[key, default: 0] += 1
        switch fault {
        case .answer(let status):
            return Reply(
                response: WriteResponse(statusCode: status), error: nil, committed: nil,
                summary: "answer \(status) (nothing recorded)")
        case .stillInFlight:
            return Reply(
                response: WriteResponse(statusCode: 409), error: nil, committed: nil,
                summary: "answer 409 (a request with key \(key) is still being processed)")
        case .conflictingRecord where records[key] == nil:
            let other = Data(#"{"title":"another body under the same key"}"#.utf8)
            insert(key: key, body: other)
        default:
            break
        }
        if let existing = records[key] {
            guard IdempotencyLedger.canonical(existing.body) == canonical else {
                let status = profile.mismatchStatus
                return Reply(
                    response: WriteResponse(statusCode: status), error: nil, committed: nil,
                    summary: "record \(existing.id) holds a different body under this key → answer \(status)")
            }
            return Reply(
                response: WriteResponse(statusCode: 200, body: result(for: existing)), error: nil,
                committed: nil, summary: "same key, same body → original result (record \(existing.id), 200)")
        }
        let record = insert(key: key, body: request.body)
        switch fault {
        case .commitThen503:
            return Reply(
                response: WriteResponse(statusCode: 503), error: nil, committed: record,
                summary: "commit record \(record.id) then answer 503")
        case .commitThenDrop:
            return Reply(
                response: nil, error: .connectionLost, committed: record,
                summary: "commit record \(record.id) then drop the connection")
        default:
            return Reply(
                response: WriteResponse(statusCode: 201, body: result(for: record)), error: nil,
                committed: record, summary: "commit record \(record.id), answer 201")
        }
    }

    @discardableResult
    private mutating func insert(key: String, body: Data) -> Record {
        let record = Record(id: records.count + 1, key: key, body: body)
        records[key] = record
        order.append(key)
        return record
    }

    private func result(for record: Record) -> Data {
        let attempts = attemptsByKey[record.key] ?? 0
        return Data(#"{"id":\#(record.id),"attempts":\#(attempts),"record_count":\#(records.count)}"#.utf8)
    }
}
