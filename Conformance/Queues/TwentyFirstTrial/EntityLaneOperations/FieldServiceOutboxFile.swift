import Foundation

/// One queued mutation as it sits in `outbox.json`.
struct OutboxRecord: Codable, Sendable {
    var id: UUID
    /// The caller's own identifier for the action (a draft ID, an analytics ID).
    var label: String
    /// Records for the same entity are sent in the order they were created.
    var entity: String?
    var idempotencyKey: String
    /// The exact bytes of the request body, fixed at enqueue time.
    var body: Data
    var createdAt: Date
    var attempts: Int
    var notBefore: Date
    /// Why automatic sending stopped (nil while the record is still being delivered).
    var stopReason: String?
}

/// The outbox's one file. Every change is a read-modify-write of the whole file under a lock,
/// written atomically, so there is no in-memory copy that could go stale across launches.
final class FieldServiceOutboxFile: @unchecked Sendable {
    let url: URL
    private let lock = NSLock()

    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        url = directory.appendingPathComponent("outbox.json")
    }

    func records() -> [OutboxRecord] {
        lock.withLock { read() }
    }

    @discardableResult
    func update<T>(_ change: (inout [OutboxRecord]) throws -> T) throws -> T {
        try lock.withLock {
            var all = read()
            let result = try change(&all)
            // Dates stay in their own reference-date form: converting to 1970 seconds and back
            // can move a creation time by a rounding step on every rewrite.
            try JSONEncoder().encode(all).write(to: url, options: .atomic)
            return result
        }
    }

    private func read() -> [OutboxRecord] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([OutboxRecord].self, from: data)) ?? []
    }
}
