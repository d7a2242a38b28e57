import Foundation

/// The storage of ``DueTimeOutbox``: it outlives a crashed queue instance. Each item keeps the
/// time it is next due, so a sending pass can skip what is not due without waiting.
final class DueTimeStore: @unchecked Sendable {
    enum State: Hashable, Sendable {
        case pending
        case completed
        case needsAttention(String)
    }

    struct Item: Hashable, Sendable {
        let id: String
        let key: String
        let body: Data
        let createdAt: Duration
        var attempts = 0
        var dueAt: Duration
        var state = State.pending
    }

    private let lock = NSLock()
    private var items: [Item] = []

    var all: [Item] { lock.withLock { items } }

    func append(_ item: Item) {
        lock.withLock { items.append(item) }
    }

    func update(_ id: String, _ change: (inout Item) -> Void) {
        lock.withLock {
            if let index = items.firstIndex(where: { $0.id == id }) { change(&items[index]) }
        }
    }
}
