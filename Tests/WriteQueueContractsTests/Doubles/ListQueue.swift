import Foundation
import WriteQueueContracts

/// An in-memory queue for the failure tests: a list of bodies with keys.
final class ListQueue: @unchecked Sendable {
    let transport: ControlledTransport
    private let lock = NSLockBox()
    private var items: [(key: String, body: Data)] = []
    let stall = AsyncStream<Void>.makeStream()

    init(transport: ControlledTransport) {
        self.transport = transport
    }

    func add(_ body: Data) { lock.run { items.append((UUID().uuidString, body)) } }
    var all: [(key: String, body: Data)] { lock.run { items } }
}
