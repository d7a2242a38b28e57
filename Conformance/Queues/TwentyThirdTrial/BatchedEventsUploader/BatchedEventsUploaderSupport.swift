import Foundation

/// What the server answered: the status, and the body (read only for its error code).
struct BatchedEventsUploaderReply: Sendable { let status: Int; let body: Data }

/// One stored event. Times are ISO-8601 strings (UTC, milliseconds), as the backend's tools read them.
struct BatchedEventsUploaderEvent: Codable, Sendable {
    enum State: String, Codable, Sendable {
        case pending, sent, stopped
        case awaitingSignIn   // a 401: kept with its key and body until the user signs in again
    }

    let seq: Int
    var operationID: String    // the newest edit merged into this event
    let entity: String?        // set for updates only: creates never merge
    let key: String
    var body: Data
    let createdAt: String
    var state: State
    var attempts: Int          // answered attempts that count toward backoff (a 401 does not)
    var firstSentAt: String?   // saved before the first request: no edit merges in after that
    var nextAttemptAt: String?
    var note: String?          // status and error code only, never the server's message
    var stuckReported: Bool
}

enum BatchedEventsUploaderSupport {
    struct Snapshot: Codable, Sendable { var nextSeq: Int; var events: [BatchedEventsUploaderEvent] }

    static let batchSize = 10
    static let baseDelay: TimeInterval = 2
    static let backoffCap: TimeInterval = 60
    static let stuckAfter: TimeInterval = 24 * 60 * 60
    private static let iso = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static func stamp(_ date: Date) -> String { iso.format(date) }
    static func date(_ text: String) -> Date? { try? iso.parse(text) }

    static func oldestFirst(_ a: BatchedEventsUploaderEvent, _ b: BatchedEventsUploaderEvent) -> Bool {
        (a.createdAt, a.seq) < (b.createdAt, b.seq)   // ISO-8601 UTC strings sort as times
    }

    static func load(from directory: URL) throws -> Snapshot {
        let url = directory.appendingPathComponent("events.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return Snapshot(nextSeq: 1, events: []) }
        return try JSONDecoder().decode(Snapshot.self, from: Data(contentsOf: url))
    }

    static func save(_ snapshot: Snapshot, to directory: URL) throws {
        try JSONEncoder().encode(snapshot).write(to: directory.appendingPathComponent("events.json"), options: .atomic)
    }

    /// The body for a log line: every value under a sensitive key is replaced, whatever its
    /// type (a PIN is often a number), at any depth.
    static func redacted(_ body: Data, hiding fields: Set<String>) -> String {
        let hidden = Set(fields.map { $0.lowercased() })
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
              case let cleaned = scrub(object, hidden), JSONSerialization.isValidJSONObject(cleaned),
              let data = try? JSONSerialization.data(withJSONObject: cleaned, options: [.sortedKeys]),
              let text = String(data: data, encoding: .utf8)
        else { return "<\(body.count) bytes>" }
        return text
    }

    private static func scrub(_ value: Any, _ hidden: Set<String>) -> Any {
        if let object = value as? [String: Any] {
            return object.reduce(into: [String: Any]()) { copy, field in
                copy[field.key] = hidden.contains(field.key.lowercased()) ? ("<redacted>" as Any) : scrub(field.value, hidden)
            }
        }
        if let array = value as? [Any] { return array.map { scrub($0, hidden) } }
        return value
    }

    /// `" (validation_failed)"` from `{"error": "validation_failed", "message": …}`: messages quote values.
    static func errorCode(in body: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let code = object["error"] as? String, !code.isEmpty, code.count <= 40,
              code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") })
        else { return "" }
        return " (\(code))"
    }
}
