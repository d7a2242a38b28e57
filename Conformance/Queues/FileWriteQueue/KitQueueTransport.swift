import Foundation
import ReferenceImplementations
import WriteQueueContracts

/// Bridges the kit's controlled transport to the reference queue's ``QueueTransport``.
struct KitQueueTransport: QueueTransport {
    let transport: ControlledTransport

    func send(idempotencyKey: String, body: Data) async throws -> Int {
        try await transport.send(WriteRequest(idempotencyKey: idempotencyKey, body: body)).statusCode
    }
}
