import Foundation

/// The storage of a ``MinimalQueue``: an in-memory object standing for the disk, so it
/// survives the kit's crash. It also carries the settings the queue runs with.
public final class MinimalQueueStore: @unchecked Sendable {
    /// One stored task.
    struct Row: Sendable {
        var operationID: String
        var key: String
        var body: Data
        var fields: [String: String]
        var createdAt: Date
        var attempts = 0
        var dueAt: Date
        var stoppedBecause: String?
        var leaseExpiry: Date?
    }

    let settings: MinimalQueueSettings
    private let lock = NSLock()
    private var rows: [Row] = []

    init(settings: MinimalQueueSettings) {
        self.settings = settings
    }

    var all: [Row] { lock.withLock { rows } }

    func append(_ row: Row) {
        lock.withLock { rows.append(row) }
    }

    func update(_ key: String, _ change: (inout Row) -> Void) {
        lock.withLock {
            if let index = rows.firstIndex(where: { $0.key == key }) { change(&rows[index]) }
        }
    }

    func remove(_ key: String) {
        lock.withLock { rows.removeAll { $0.key == key } }
    }

    /// Takes the storage lease of `key` until `expiry`, unless another holds it; `true` when taken.
    func takeLease(_ key: String, now: Date, until expiry: Date) -> Bool {
        lock.withLock {
            guard let index = rows.firstIndex(where: { $0.key == key }) else { return false }
            if let held = rows[index].leaseExpiry, held > now { return false }
            rows[index].leaseExpiry = expiry
            return true
        }
    }
}
