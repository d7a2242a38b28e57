import ConformanceKit

/// Maps requests onto the record store: `POST /items` with the seed script's semantics and
/// the fault mode's first answer, plus the observation endpoints.
final class RequestRouter: Sendable {
    /// What a connection does with a request.
    enum Action {
        /// Write this response.
        case respond(HTTPResponse)
        /// Close the connection without writing anything (the `commit-then-drop` fault).
        case drop
    }

    private let store: RecordStore
    private let mode: FaultMode
    private let profile: ConflictProfile
    private let allowReset: Bool

    init(store: RecordStore, mode: FaultMode, profile: ConflictProfile, allowReset: Bool) {
        self.store = store
        self.mode = mode
        self.profile = profile
        self.allowReset = allowReset
    }

    /// Answers one request.
    func route(_ request: HTTPRequest) -> Action {
        switch request.path {
        case "/items":
            guard request.method == "POST" else { return .respond(Self.notAllowed("POST")) }
            return postItem(request)
        case "/records":
            guard request.method == "GET" else { return .respond(Self.notAllowed("GET")) }
            return .respond(allRecords())
        case let path where path.hasPrefix("/records/"):
            guard request.method == "GET" else { return .respond(Self.notAllowed("GET")) }
            return .respond(oneRecord(key: String(path.dropFirst("/records/".count))))
        case "/reset":
            guard request.method == "POST" else { return .respond(Self.notAllowed("POST")) }
            return .respond(reset())
        default:
            return .respond(.error(404, "no such path: \(request.path)"))
        }
    }

    private func postItem(_ request: HTTPRequest) -> Action {
        let key = request.header("Idempotency-Key") ?? ""
        guard !key.isEmpty else {
            return .respond(.error(400, "the Idempotency-Key header is required"))
        }
        guard !request.body.isEmpty else {
            return .respond(.error(400, "a JSON body is required"))
        }
        guard let body = JSONValue.parse(request.body) else {
            return .respond(.error(400, "the body is not valid JSON"))
        }
        switch store.submit(key: key, body: body, rejectInProgress: profile == .ietfDraft) {
        case .committed(let record, let attempts, let count):
            switch mode {
            case .commitThen503:
                return .respond(
                    .error(503, "simulated failure: the record was committed, but the server answers 503 (mode \(mode))"))
            case .commitThenDrop:
                return .drop
            case .alwaysSucceed:
                return .respond(.json(201, Self.result(record, attempts: attempts, count: count)))
            }
        case .replayed(let record, let attempts, let count):
            return .respond(.json(200, Self.result(record, attempts: attempts, count: count)))
        case .mismatch:
            return .respond(
                .error(profile.mismatchStatus, "this Idempotency-Key was already used with a different body"))
        case .inProgress:
            return .respond(.error(409, "a request with this Idempotency-Key is still being processed"))
        case .notDurable(let reason):
            return .respond(.error(500, "the record could not be made durable: \(reason)"))
        }
    }

    /// `{"id":1,"attempts":2,"record_count":1}`, in the seed script's key order.
    private static func result(_ record: StoredRecord, attempts: Int, count: Int) -> String {
        "{\"id\":\(record.id),\"attempts\":\(attempts),\"record_count\":\(count)}"
    }

    private func allRecords() -> HTTPResponse {
        let snapshot = store.snapshot()
        let records = snapshot.records.map { Self.describe($0, attempts: snapshot.attempts[$0.key] ?? 0) }
        let value = JSONValue.object([
            "record_count": .number(Double(snapshot.records.count)),
            "records": .array(records),
            "attempts": .object(snapshot.attempts.mapValues { .number(Double($0)) }),
        ])
        return .json(200, value.serialized)
    }

    private func oneRecord(key: String) -> HTTPResponse {
        let snapshot = store.snapshot()
        guard let record = snapshot.records.first(where: { $0.key == key }) else {
            return .error(404, "no record for this key")
        }
        return .json(200, Self.describe(record, attempts: snapshot.attempts[key] ?? 0).serialized)
    }

    private static func describe(_ record: StoredRecord, attempts: Int) -> JSONValue {
        .object([
            "key": .string(record.key), "id": .number(Double(record.id)), "body": record.body,
            "attempts": .number(Double(attempts)),
        ])
    }

    private func reset() -> HTTPResponse {
        guard allowReset else {
            return .error(403, "reset is disabled; start the server with --allow-reset")
        }
        do {
            try store.reset()
            return .json(200, "{\"record_count\":0,\"reset\":true}")
        } catch {
            return .error(500, "reset failed: \(error)")
        }
    }

    private static func notAllowed(_ allowed: String) -> HTTPResponse {
        var response = HTTPResponse.error(405, "method not allowed; use \(allowed)")
        response.headers.append(("Allow", allowed))
        return response
    }
}
