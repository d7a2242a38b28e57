import Foundation
import Testing
import WriteQueueContracts

@Suite("RequestLayout reads the key and the operation's body however a queue wraps them")
struct RequestLayoutTests {
    @Test("A re-encoded body is the same JSON value as the submitted one")
    func reencodedBodyMatches() {
        let submitted = WriteRequest(idempotencyKey: "k", body: Data(#"{"title":"A","card":"1"}"#.utf8))
        let reencoded = WriteRequest(idempotencyKey: "k", body: Data("{\n  \"card\" : \"1\",\n  \"title\" : \"A\"\n}".utf8))
        #expect(RequestLayout.plain.normalize(submitted).body == RequestLayout.plain.normalize(reencoded).body)
    }

    @Test("A GraphQL envelope with the key inside the input reads as the operation and its key")
    func envelopeWithKeyInBody() {
        let layout = RequestLayout(
            operationBody: ["variables", "input"], key: .bodyField(["variables", "input", "clientMutationId"]))
        let body = #"{"query":"mutation","variables":{"input":{"clientMutationId":"key-1","title":"A"}}}"#
        let (key, operation) = layout.normalize(WriteRequest(idempotencyKey: nil, body: Data(body.utf8)))
        #expect(key == "key-1")
        #expect(String(decoding: operation, as: UTF8.self) == #"{"title":"A"}"#)
    }

    @Test("An array index in a path reads one mutation of a batch envelope and its key")
    func arrayEnvelopeWithKeyInBody() {
        let layout = RequestLayout(
            operationBody: ["mutations", "0", "record"], key: .bodyField(["mutations", "0", "key"]))
        let body = #"{"mutations":[{"collection":"visits","key":"key-1","record":{"title":"A"}}]}"#
        let (key, operation) = layout.normalize(WriteRequest(idempotencyKey: nil, body: Data(body.utf8)))
        #expect(key == "key-1")
        #expect(String(decoding: operation, as: UTF8.self) == #"{"title":"A"}"#)
    }

    @Test("An array index past the end finds no key, and a word is no index")
    func arrayIndexOutOfRange() {
        let body = Data(#"{"mutations":[{"key":"key-1"}]}"#.utf8)
        let past = RequestLayout(key: .bodyField(["mutations", "1", "key"]))
        let word = RequestLayout(key: .bodyField(["mutations", "first", "key"]))
        #expect(past.normalize(WriteRequest(idempotencyKey: nil, body: body)).key == nil)
        #expect(word.normalize(WriteRequest(idempotencyKey: nil, body: body)).key == nil)
    }

    @Test("A body that is not JSON is kept as it is")
    func nonJSONKept() {
        let request = WriteRequest(idempotencyKey: "k", body: Data("not json".utf8))
        #expect(RequestLayout.plain.normalize(request).body == request.body)
    }
}

/// Q3's message names the members whose values changed between a task's first request and its
/// resend: an outside trial's queue re-stamped `client_sent_at` at each attempt, and the hint
/// blamed key order and whitespace.
@Suite struct ChangedBytesTests {
    @Test func theMembersWhoseValuesChangedAreNamed() {
        let first = Data(#"{"title":"A","meta":{"client_sent_at":"00:00:00","n":1}}"#.utf8)
        let resend = Data(#"{"meta":{"n":1,"client_sent_at":"00:00:01.250"},"title":"A"}"#.utf8)
        #expect(BodyDifference.changedMembers(first, resend) == ["meta.client_sent_at"])
    }

    @Test func otherKeyOrderAndWhitespaceChangeNoMember() {
        let first = Data(#"{"a":1,"b":[1,2]}"#.utf8)
        let resend = Data(#"{ "b": [1, 2], "a": 1 }"#.utf8)
        #expect(BodyDifference.changedMembers(first, resend) == [])
    }
}
