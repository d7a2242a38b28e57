import Foundation

/// What one HTTP exchange with the server under check produced, with the fields the S
/// contracts read from a JSON answer.
struct ServerReply: Sendable {
    /// How the exchange ended.
    enum Outcome: Sendable {
        /// A response arrived.
        case response(status: Int, body: String)
        /// The server closed the connection without any response (outcome unknown).
        case closed
        /// The server's bytes were not an HTTP response.
        case malformed(String)
        /// The kit could not reach the server at all.
        case failed(String)
    }

    /// How the exchange ended.
    let outcome: Outcome
    /// The `id` of a JSON answer (a number or a string), as text.
    let recordID: String?
    /// The `record_count` of a JSON answer.
    let recordCount: Int?
    /// The `body` member of a JSON answer, re-serialized with sorted keys.
    let storedBody: String?

    init(_ outcome: Outcome) {
        self.outcome = outcome
        var recordID: String?
        var recordCount: Int?
        var storedBody: String?
        if case .response(_, let body) = outcome,
            let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any]
        {
            if let number = object["id"] as? NSNumber {
                recordID = number.stringValue
            } else if let text = object["id"] as? String {
                recordID = text
            }
            recordCount = object["record_count"] as? Int
            if let stored = object["body"] { storedBody = ServerReply.canonical(stored) }
        }
        self.recordID = recordID
        self.recordCount = recordCount
        self.storedBody = storedBody
    }

    /// The status code, or `nil` when no response arrived.
    var status: Int? {
        if case .response(let status, _) = outcome { return status }
        return nil
    }

    /// A 2xx response.
    var isSuccess: Bool { status.map { (200..<300).contains($0) } ?? false }

    /// A 5xx response or a connection closed without one: the client cannot know whether the
    /// write happened.
    var isUnknownOutcome: Bool {
        if case .closed = outcome { return true }
        return status.map { $0 >= 500 } ?? false
    }

    /// How a tally of many answers counts this one: the status code, `closed` or `failed`.
    var tallyLabel: String {
        switch outcome {
        case .response(let status, _): String(status)
        case .closed, .malformed: "closed"
        case .failed: "failed"
        }
    }

    /// What the kit could not reach, when the exchange failed before any HTTP happened.
    var unreachable: String? {
        if case .failed(let reason) = outcome { return reason }
        return nil
    }

    /// How the transcript shows the answer: `503`, `200 {"id":1,…}`, `connection closed …`.
    var summary: String {
        switch outcome {
        case .response(let status, let body):
            let trimmed = body.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, status < 300 || recordID != nil else { return "\(status)" }
            return trimmed.count > 120 ? "\(status) \(trimmed.prefix(120))…" : "\(status) \(trimmed)"
        case .closed:
            return "connection closed without a response"
        case .malformed(let text):
            return "malformed response \"\(text.prefix(80))\""
        case .failed(let reason):
            return "failed: \(reason)"
        }
    }

    /// A JSON text with sorted keys, for comparing bodies by value.
    static func canonical(_ object: Any) -> String? {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The canonical form of a JSON text, or `nil` when it is not JSON.
    static func canonical(text: String) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        else { return nil }
        return canonical(object)
    }
}
