import ConformanceKit
import Foundation

/// The kit's side of one S contract run: sends requests to the server under check, records
/// each exchange as a transcript step, and turns wrong answers into violations.
struct ServerProbe: Sendable {
    /// A key whose record the probe has seen committed.
    struct Established: Sendable {
        /// The key.
        let key: String
        /// The record ID the server answered with.
        let id: String
        /// The server's `record_count` in that answer, if it reports one.
        let recordCount: Int?
    }

    let client: HTTPClient
    let recorder: TimelineRecorder
    let contract: ContractID
    /// What the server's conflict answers mean.
    let profile: ConflictProfile
    let baseURL: URL

    /// A fresh key for this run, printed in every step that uses it: `s1-a-1b2c3d4e5f60`.
    func freshKey(_ label: String) -> String {
        let random = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        return "\(contract.rawValue.lowercased())-\(label)-\(random)"
    }

    /// Sends `POST /items` and records `POST /items key=… body … → status`.
    func post(key: String?, body: String?, tag: String = "") async -> ServerReply {
        var headers = [("Content-Type", "application/json")]
        if let key { headers.append(("Idempotency-Key", key)) }
        let keyText = key.map { "key=\($0)" } ?? "no key"
        let bodyText = body.map { $0.isEmpty ? "empty body" : "body \($0)" } ?? "no body"
        let request = "\(tag)POST /items \(keyText) \(bodyText)"
        recorder.setWaiting(for: "the answer to \(request)")
        let reply = ServerReply(
            await client.exchange(method: "POST", path: "/items", headers: headers, body: body.map { Array($0.utf8) }))
        recorder.record("\(request) → \(reply.summary)")
        return reply
    }

    /// Sends `GET path` and records it.
    func get(_ path: String) async -> ServerReply {
        recorder.setWaiting(for: "the answer to GET \(path)")
        let reply = ServerReply(await client.exchange(method: "GET", path: path))
        recorder.record("GET \(path) → \(reply.summary)")
        return reply
    }

    /// Records a contract violation at the last step and returns the error that ends the run.
    func violation(_ summary: String, expected: String? = nil, actual: String? = nil, hint: String? = nil)
        -> TimelineStop
    {
        recorder.fail(
            Violation(tier: recorder.tier, summary: summary, expected: expected, actual: actual, hint: hint))
    }

    /// Stops the run when the server could not be reached or did not speak HTTP: not a verdict
    /// on the rule, so it is an adapter error.
    func requireReachable(_ reply: ServerReply) throws {
        switch reply.outcome {
        case .failed(let reason):
            throw recorder.fail(
                Violation(
                    kind: .adapterError, tier: recorder.tier,
                    summary: "Expected the server at \(baseURL.absoluteString) to answer, but \(reason).",
                    hint: "Start the server first (swift run fault-server), and check the URL and port."))
        case .malformed(let text):
            throw recorder.fail(
                Violation(
                    kind: .adapterError, tier: recorder.tier,
                    summary: "Expected an HTTP/1.x response from \(baseURL.absoluteString), but got \"\(text.prefix(80))\".",
                    hint: "The URL must point at the HTTP endpoint (http://host:port), not at TLS or another protocol."))
        case .response, .closed:
            return
        }
    }

    /// Checks the answer to the first request for a fresh key: it may succeed, or fail in a
    /// way that leaves the outcome unknown (5xx, dropped connection), but not be refused.
    func requireFirstReceipt(_ reply: ServerReply, key: String) throws {
        try requireReachable(reply)
        guard reply.isSuccess || reply.isUnknownOutcome else {
            throw violation(
                "Expected the first request with the fresh key \(key) and a valid JSON body to be processed "
                    + "(2xx, or 5xx / a dropped connection after committing), but it got \(reply.summary).",
                expected: "status 2xx or 5xx, or a dropped connection",
                actual: "status \(reply.status.map(String.init) ?? "none")",
                hint: "The S contracts send POST /items with an Idempotency-Key header and a JSON body; "
                    + "check that the base URL points at the idempotent endpoint.")
        }
    }

    /// Sends `body` under `key` until the server answers with the stored record: once (the
    /// first receipt, whatever its fault), then again, which must return the record.
    func establish(key: String, body: String) async throws -> Established {
        let first = await post(key: key, body: body)
        try requireFirstReceipt(first, key: key)
        let second = await post(key: key, body: body)
        try requireReachable(second)
        guard second.isSuccess, let id = second.recordID else {
            throw violation(
                "Expected a repeat of key \(key) with the same body to return the stored result "
                    + "(2xx with an id), but it got \(second.summary).",
                expected: "2xx with {\"id\": …}",
                actual: second.summary,
                hint: second.isUnknownOutcome
                    ? "The first request was processed; a repeat must answer with the original result, "
                        + "not fail again (a server that forgets the key makes every retry a new write)."
                    : "Answer a repeated key and body with the stored result and its record id.")
        }
        if first.isSuccess, let firstID = first.recordID, firstID != id {
            throw violation(
                "Expected a repeat of key \(key) to return the original record, but the first answer had "
                    + "id \(firstID) and the repeat id \(id).",
                expected: "id \(firstID)", actual: "id \(id)",
                hint: "Store the result under the key and return it on every repeat; never create a second record.")
        }
        return Established(key: key, id: id, recordCount: second.recordCount)
    }

    /// The status a reused key with a different body must get in the declared profile.
    var mismatchStatus: Int { profile.mismatchStatus }

    /// Whether the server declares the IETF idempotency-key draft profile.
    var followsIETFDraft: Bool { profile == .ietfDraft }
}
