import ConformanceKit
import Foundation
import ReferenceImplementations
import WriteQueueContracts

/// The parent's transport: answers at once from the idempotency ledger.
struct LedgerTransport: QueueTransport {
    let ledger: IdempotencyLedger
    /// The keys the parent's transport saw, in order.
    let sent: Locked<[String]>

    func send(idempotencyKey: String, body: Data) async throws -> Int {
        sent.withLock { $0.append(idempotencyKey) }
        let reply = ledger.receive(WriteRequest(idempotencyKey: idempotencyKey, body: body))
        if let error = reply.error { throw error }
        return reply.response?.statusCode ?? 0
    }
}
