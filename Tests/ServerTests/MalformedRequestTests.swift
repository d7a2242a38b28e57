import Foundation
import IdempotencyServer
import Testing

/// A malformed request that the server must refuse (or close on) and survive.
struct BadRequest: Sendable, CustomTestStringConvertible {
    /// What is wrong with it.
    let name: String
    /// The bytes, sent in these parts.
    let parts: [[UInt8]]
    /// The acceptable status codes; `nil` in the set means "closed without an answer".
    let expected: Set<Int?>

    var testDescription: String { name }

    init(_ name: String, _ text: String, _ expected: Set<Int?>) {
        self.init(name, bytes: Array(text.utf8), expected)
    }

    init(_ name: String, bytes: [UInt8], _ expected: Set<Int?>) {
        self.name = name
        parts = [bytes]
        self.expected = expected
    }

    static let body = #"{"title":"a"}"#

    static let corpus: [BadRequest] = [
        BadRequest("garbage request line", "GARBAGE\r\n\r\n", [400]),
        BadRequest("request line without a version", "GET /items\r\n\r\n", [400]),
        BadRequest("misspelled HTTP version", "POST /items HTTQ/1.1\r\n\r\n", [400]),
        BadRequest("unsupported HTTP version", "POST /items HTTP/9.9\r\n\r\n", [505]),
        BadRequest("target without a slash", "POST items HTTP/1.1\r\n\r\n", [400]),
        BadRequest("malformed percent escape", "GET /records/%zz HTTP/1.1\r\n\r\n", [400]),
        BadRequest(
            "Content-Length not a number",
            "POST /items HTTP/1.1\r\nIdempotency-Key: k\r\nContent-Length: abc\r\n\r\n\(body)", [400]),
        BadRequest(
            "negative Content-Length", "POST /items HTTP/1.1\r\nIdempotency-Key: k\r\nContent-Length: -5\r\n\r\n", [400]),
        BadRequest(
            "conflicting Content-Length",
            "POST /items HTTP/1.1\r\nIdempotency-Key: k\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n", [400]),
        BadRequest(
            "Content-Length beyond the body limit",
            "POST /items HTTP/1.1\r\nIdempotency-Key: k\r\nContent-Length: 99999999999\r\n\r\n", [413]),
        BadRequest(
            "truncated body (client gives up)",
            "POST /items HTTP/1.1\r\nIdempotency-Key: k\r\nContent-Length: 100\r\n\r\n{\"title\"", [nil]),
        BadRequest("truncated head (client gives up)", "POST /items HTTP/1.1\r\nIdempotency-", [nil]),
        BadRequest(
            "chunked transfer encoding",
            "POST /items HTTP/1.1\r\nIdempotency-Key: k\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", [411]),
        BadRequest(
            "invalid JSON body",
            "POST /items HTTP/1.1\r\nIdempotency-Key: k\r\nContent-Length: 6\r\nConnection: close\r\n\r\n{bad}x", [400]),
        BadRequest(
            "body that is not UTF-8",
            bytes: Array("POST /items HTTP/1.1\r\nIdempotency-Key: k\r\nContent-Length: 4\r\nConnection: close\r\n\r\n".utf8)
                + [0xFF, 0xFE, 0x22, 0x22], [400]),
        BadRequest(
            "JSON nested 100,000 deep",
            RawHTTP.request(key: "k", body: String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)),
            [400, 413]),
        BadRequest(
            "missing Idempotency-Key", RawHTTP.request(key: nil, body: body), [400]),
        BadRequest(
            "empty body", RawHTTP.request(key: "k", body: ""), [400]),
        BadRequest(
            "header line without a colon", "POST /items HTTP/1.1\r\nIdempotency-Key k\r\n\r\n", [400]),
        BadRequest(
            "folded header line", "POST /items HTTP/1.1\r\nIdempotency-Key: k\r\n  continued\r\n\r\n", [400]),
        BadRequest(
            "header name with a space", "POST /items HTTP/1.1\r\nIdempotency Key: k\r\n\r\n", [400]),
        BadRequest(
            "32 KiB header value",
            "POST /items HTTP/1.1\r\nX-Big: \(String(repeating: "a", count: 32 * 1024))\r\n\r\n", [431]),
        BadRequest(
            "endless head without a blank line", String(repeating: "X-Header: value\r\n", count: 4096), [400, 431]),
        BadRequest(
            "200 header fields",
            "POST /items HTTP/1.1\r\n" + (0..<200).map { "X-\($0): v\r\n" }.joined() + "\r\n", [431]),
        BadRequest("binary garbage", bytes: (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 7) } + Array("\r\n\r\n".utf8), [400]),
        BadRequest("unknown path", "POST /nope HTTP/1.1\r\nConnection: close\r\n\r\n", [404]),
        BadRequest("wrong method", "GET /items HTTP/1.1\r\nConnection: close\r\n\r\n", [405]),
        BadRequest("reset without --allow-reset", "POST /reset HTTP/1.1\r\nConnection: close\r\n\r\n", [403]),
    ]
}

/// Bad input gets a clear 4xx (or a close), and the server keeps serving.
@Suite("Malformed requests")
struct MalformedRequestTests {
    @Test("refused, and the server still answers afterwards", arguments: BadRequest.corpus)
    func refusedAndStillServing(_ bad: BadRequest) async throws {
        let server = try RestartableServer(loopback())
        let answer = await RawHTTP.send(bad.parts, to: server.port)
        #expect(!answer.refused)
        #expect(bad.expected.contains(answer.status), "got: \(answer.text.prefix(300))")
        if let status = answer.status {
            #expect(answer.body.contains("\"status\":\(status)"), "a 4xx says why in JSON: \(answer.body)")
        }
        let valid = await RawHTTP.post(key: "after", body: BadRequest.body, port: server.port)
        let again = await RawHTTP.post(key: "after", body: BadRequest.body, port: server.port)
        let records = server.current.records
        await server.stop()
        #expect(valid.status == 503)
        #expect(again.status == 200)
        #expect(records.map(\.key) == ["after"], "the bad request recorded nothing")
    }

    @Test("a request left half-sent gets 408 when the idle limit passes")
    func idleLimit() async throws {
        let server = try RestartableServer(loopback(idleTimeout: .seconds(1)))
        let answer = await RawHTTP.send(
            [Array("POST /items HTTP/1.1\r\nIdempotency-Key: k\r\n".utf8)], to: server.port, finish: false)
        await server.stop()
        #expect(answer.status == 408)
    }

    @Test("Expect: 100-continue gets 100, then the answer")
    func expectContinue() async throws {
        let server = try RestartableServer(loopback(mode: .alwaysSucceed))
        let head = "POST /items HTTP/1.1\r\nIdempotency-Key: k\r\nContent-Length: 13\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n"
        let answer = await RawHTTP.send(
            [Array(head.utf8), Array(#"{"title":"a"}"#.utf8)], to: server.port, answerBetweenParts: true)
        await server.stop()
        #expect(answer.statuses == [100, 201])
    }

    @Test("bodies are compared as parsed JSON, not as bytes")
    func bodiesComparedAsJSON() async throws {
        let server = try RestartableServer(loopback())
        _ = await RawHTTP.post(key: "k", body: #"{"a":1,"b":[true,null]}"#, port: server.port)
        let reordered = await RawHTTP.post(key: "k", body: #" { "b" : [ true , null ] , "a" : 1.0 } "#, port: server.port)
        let different = await RawHTTP.post(key: "k", body: #"{"a":2,"b":[true,null]}"#, port: server.port)
        await server.stop()
        #expect(reordered.status == 200)
        #expect(different.status == 409)
    }
}
