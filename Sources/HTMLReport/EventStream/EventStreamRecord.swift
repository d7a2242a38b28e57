import Foundation

/// One line of Swift Testing's JSON event stream (`swift test --event-stream-output-path PATH
/// --event-stream-version 0`), reduced to what a report page needs.
///
/// The stream's schema is Swift Testing's `Documentation/ABI/JSON.md`; fields whose names
/// start with `_` (`_testCase`, `_comments`, the attachment's `_bytes`) are ones the schema
/// marks experimental. Version 0 carries them, and does not carry warning-severity issues,
/// which is why the kit also attaches the report of every warning it records.
enum EventStreamRecord {
    /// A `test` record: a suite or a test function, with its parameterized cases.
    struct Test {
        let id: String
        let name: String
        let displayName: String?
        let kind: String
        let isParameterized: Bool
        let sourceLocation: String?
    }

    /// An `event` record.
    struct Event {
        let kind: String
        let testID: String?
        let testCase: String?
        let instant: Double?
        let messages: [(symbol: String, text: String)]
        let issue: Issue?
        let attachment: Attachment?
    }

    /// An `issueRecorded` event's issue.
    struct Issue {
        let isKnown: Bool
        let isWarning: Bool
        let text: String
        let sourceLocation: String?
    }

    /// A `valueAttached` event's attachment.
    struct Attachment {
        let name: String
        let text: String
    }

    case test(Test)
    case event(Event)

    /// The schema version this reader understands.
    static let version = 0

    /// Decodes one line.
    /// - Throws: ``EventStreamError`` naming `line` and what was expected.
    static func decode(_ bytes: Data, line: Int, isLast: Bool) throws(EventStreamError) -> EventStreamRecord {
        let object: [String: Any]
        do {
            guard let decoded = try JSONSerialization.jsonObject(with: bytes) as? [String: Any] else {
                throw EventStreamError(
                    line: line, problem: "the line is JSON but not an object",
                    expected: "one JSON object per line, as `swift test --event-stream-output-path` writes")
            }
            object = decoded
        } catch let error as EventStreamError {
            throw error
        } catch {
            let start = String(decoding: bytes.prefix(60), as: UTF8.self)
            if isLast, bytes.first == UInt8(ascii: "{") {
                throw EventStreamError(
                    line: line,
                    problem:
                        "the last line is cut short (\"\(start)…\"): the stream is torn, written by a run that did not finish",
                    expected: "a complete JSON object ending in a newline, and a runEnded event last")
            }
            throw EventStreamError(
                line: line, problem: "the line is not JSON (\"\(start)\(bytes.count > 60 ? "…" : "")\")",
                expected:
                    "Swift Testing's JSON event stream: one JSON object per line (`swift test --event-stream-output-path events.jsonl --event-stream-version 0`)"
            )
        }
        guard let version = object["version"], let kind = object["kind"] as? String,
            let payload = object["payload"] as? [String: Any]
        else {
            throw EventStreamError(
                line: line,
                problem:
                    "the object is not a Swift Testing event stream record (it lacks \"version\", \"kind\" or \"payload\")",
                expected: "a record such as {\"version\":0,\"kind\":\"event\",\"payload\":{…}}")
        }
        guard !(version is String), (version as? Int) == Self.version else {
            throw EventStreamError(
                line: line,
                problem:
                    "the record is from event stream version \(String(describing: version)) (another Swift version or flag)",
                expected:
                    "version 0: run `swift test --event-stream-output-path events.jsonl --event-stream-version 0`"
            )
        }
        switch kind {
        case "test":
            guard let id = payload["id"] as? String, let name = payload["name"] as? String else {
                throw EventStreamError(
                    line: line, problem: "a test record without \"id\" or \"name\"",
                    expected: "a test record with the test's id, name and kind")
            }
            return .test(
                Test(
                    id: id, name: name, displayName: payload["displayName"] as? String,
                    kind: payload["kind"] as? String ?? "function",
                    isParameterized: payload["isParameterized"] as? Bool ?? false,
                    sourceLocation: location(payload["sourceLocation"])))
        case "event":
            guard let eventKind = payload["kind"] as? String else {
                throw EventStreamError(
                    line: line, problem: "an event record without a \"kind\"",
                    expected:
                        "an event such as runStarted, testCaseStarted, issueRecorded, valueAttached, runEnded"
                )
            }
            let messages = (payload["messages"] as? [[String: Any]] ?? []).map {
                (symbol: $0["symbol"] as? String ?? "", text: $0["text"] as? String ?? "")
            }
            return .event(
                Event(
                    kind: eventKind, testID: payload["testID"] as? String,
                    testCase: (payload["_testCase"] as? [String: Any])?["displayName"] as? String,
                    instant: (payload["instant"] as? [String: Any])?["absolute"] as? Double,
                    messages: messages,
                    issue: issue(payload, messages: messages),
                    attachment: attachment(payload["attachment"] as? [String: Any])))
        default:
            throw EventStreamError(
                line: line, problem: "a record of kind \"\(kind)\"",
                expected: "a record of kind \"test\" or \"event\"")
        }
    }

    private static func location(_ value: Any?) -> String? {
        guard let location = value as? [String: Any], let file = location["fileID"] as? String else {
            return nil
        }
        return "\(file.split(separator: "/").last ?? Substring(file)):\(location["line"] as? Int ?? 0)"
    }

    private static func issue(_ payload: [String: Any], messages: [(symbol: String, text: String)]) -> Issue?
    {
        guard let issue = payload["issue"] as? [String: Any] else { return nil }
        let comments = payload["_comments"] as? [String]
        let details = messages.filter { $0.symbol == "details" }.map(\.text)
        let heading = messages.first?.text ?? "Issue recorded"
        let text =
            comments.map { $0.joined(separator: "\n") }
            ?? (details.isEmpty ? heading : details.joined(separator: "\n"))
        return Issue(
            isKnown: issue["isKnown"] as? Bool ?? false,
            isWarning: issue["severity"] as? String == "warning" || messages.first?.symbol == "warning",
            text: text.isEmpty ? heading : text, sourceLocation: location(issue["sourceLocation"]))
    }

    private static func attachment(_ attachment: [String: Any]?) -> Attachment? {
        guard let attachment else { return nil }
        let path = attachment["path"] as? String
        let name =
            attachment["_preferredName"] as? String ?? path.map { URL(fileURLWithPath: $0).lastPathComponent }
            ?? "attachment"
        if let encoded = attachment["_bytes"] as? String, let bytes = Data(base64Encoded: encoded) {
            let text = String(data: bytes, encoding: .utf8) ?? "(\(bytes.count) bytes of binary data)"
            return Attachment(name: name, text: text)
        }
        if let path, let bytes = FileManager.default.contents(atPath: path) {
            return Attachment(
                name: name,
                text: String(data: bytes, encoding: .utf8) ?? "(\(bytes.count) bytes of binary data)")
        }
        return Attachment(name: name, text: path.map { "(saved at \($0))" } ?? "(content not in the stream)")
    }
}
