import ConformanceKit
import Foundation
import WriteQueueContracts

/// An in-memory queue for the failure tests: a list of bodies with keys.
final class ListQueue: Sendable {
    let transport: ControlledTransport
    private let items = Locked<[(key: String, body: Data)]>(rawValue: [])
    let stall = AsyncStream<Void>.makeStream()

    init(transport: ControlledTransport) {
        self.transport = transport
    }

    func add(_ body: Data) { items.withLock { $0.append((UUID().uuidString, body)) } }
    var all: [(key: String, body: Data)] { items.rawValue }
}
