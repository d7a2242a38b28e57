import Foundation
import ReferenceImplementations
import WriteQueueContracts

/// The parent's transport: answers at once from the idempotency ledger.
struct LedgerTransport: QueueTransport {
    let ledger: IdempotencyLedger
    let sent: SentLog

    func send(idempotencyKey: String, body: Data) async throws -> Int {
        sent.append(idempotencyKey)
        let reply = ledger.receive(WriteRequest(idempotencyKey: idempotencyKey, body: body))
        if let error = reply.error { throw error }
        return reply.response?.statusCode ?? 0
    }
}
