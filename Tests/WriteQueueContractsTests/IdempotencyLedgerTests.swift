import ConformanceKit
import Foundation
import Testing
import WriteQueueContracts

@Suite("IdempotencyLedger: the kit's server model")
struct IdempotencyLedgerTests {
    let ticket = WriteRequest(idempotencyKey: "k-1", body: Data(#"{"title":"Ticket 1"}"#.utf8))

    @Test("The seed's fault: commit then 503, and the resend gets the original result")
    func commitThen503ThenOriginal() throws {
        let ledger = IdempotencyLedger()
        let first = ledger.receive(ticket, fault: .commitThen503)
        #expect(first.response?.statusCode == 503)
        #expect(first.committed?.id == 1)
        let second = ledger.receive(ticket)
        #expect(second.response?.statusCode == 200)
        let body = try #require(second.response?.body)
        #expect(String(decoding: body, as: UTF8.self) == #"{"id":1,"attempts":2,"record_count":1}"#)
        #expect(ledger.recordCount == 1)
        #expect(ledger.attempts(forKey: "k-1") == 2)
    }

    @Test("Commit then drop: no answer, but the record exists")
    func commitThenDrop() {
        let ledger = IdempotencyLedger()
        let reply = ledger.receive(ticket, fault: .commitThenDrop)
        #expect(reply.response == nil)
        #expect(reply.error == .connectionLost)
        #expect(ledger.recordCount == 1)
    }

    @Test("Same key, same JSON in another key order: the original result")
    func sameBodyDifferentSpelling() {
        let ledger = IdempotencyLedger()
        _ = ledger.receive(WriteRequest(idempotencyKey: "k", body: Data(#"{"a":1,"b":2}"#.utf8)))
        let again = ledger.receive(WriteRequest(idempotencyKey: "k", body: Data(#"{"b":2,"a":1}"#.utf8)))
        #expect(again.response?.statusCode == 200)
        #expect(ledger.recordCount == 1)
    }

    @Test(
        "Same key, different body: rejected, record not overwritten",
        arguments: [(ConflictProfile.sourceDocument, 409), (.ietfDraft, 422)])
    func mismatch(profile: ConflictProfile, status: Int) {
        let ledger = IdempotencyLedger(profile: profile)
        _ = ledger.receive(ticket)
        let other = WriteRequest(idempotencyKey: "k-1", body: Data(#"{"title":"Changed"}"#.utf8))
        #expect(ledger.receive(other).response?.statusCode == status)
        #expect(ledger.record(forKey: "k-1")?.body == ticket.body)
        #expect(ledger.recordCount == 1)
    }

    @Test("A missing key or a body that is not JSON: 400, nothing recorded")
    func badRequests() {
        let ledger = IdempotencyLedger()
        #expect(ledger.receive(WriteRequest(idempotencyKey: nil, body: ticket.body)).response?.statusCode == 400)
        #expect(ledger.receive(WriteRequest(idempotencyKey: "k", body: Data("not json".utf8))).response?.statusCode == 400)
        #expect(ledger.recordCount == 0)
    }

    @Test("Two keys, identical bodies: two records")
    func newActionNewRecord() {
        let ledger = IdempotencyLedger()
        _ = ledger.receive(ticket)
        _ = ledger.receive(WriteRequest(idempotencyKey: "k-2", body: ticket.body))
        #expect(ledger.allRecords.map(\.id) == [1, 2])
    }

    @Test("Scripted answers count as attempts and record nothing")
    func scriptedAnswers() {
        let ledger = IdempotencyLedger(profile: .ietfDraft)
        #expect(ledger.receive(ticket, fault: .answer(status: 429)).response?.statusCode == 429)
        #expect(ledger.receive(ticket, fault: .stillInFlight).response?.statusCode == 409)
        #expect(ledger.receive(ticket, fault: .conflictingRecord).response?.statusCode == 422)
        #expect(ledger.attempts(forKey: "k-1") == 3)
        #expect(ledger.record(forKey: "k-1")?.body != ticket.body)
    }
}
