import Foundation

public protocol UTEntryStore: Sendable {
    /// Inserts or overwrites the entry with the same id.
    func save(_ entry: UTOutboxEntry) throws
    func delete(_ id: UUID) throws
    /// Entries sorted by creation time, then by insertion order.
    func entries() throws -> [UTOutboxEntry]
}

public final class UTInMemoryEntryStore: UTEntryStore, @unchecked Sendable {
    private struct Record {
        var sequence: Int
        var json: Data
    }

    private let lock = NSLock()
    private var records: [UUID: Record] = [:]
    private var sequence = 0

    public init() {}

    public func save(_ entry: UTOutboxEntry) throws {
        let json = try JSONEncoder().encode(entry)
        lock.lock()
        defer { lock.unlock() }
        if records[entry.id] != nil {
            records[entry.id]?.json = json
        } else {
            sequence += 1
            records[entry.id] = Record(sequence: sequence, json: json)
        }
    }

    public func delete(_ id: UUID) throws {
        lock.lock()
        defer { lock.unlock() }
        records[id] = nil
    }

    public func entries() throws -> [UTOutboxEntry] {
        lock.lock()
        let snapshot = records.values.sorted { $0.sequence < $1.sequence }
        lock.unlock()
        let decoder = JSONDecoder()
        let decoded = try snapshot.map { try decoder.decode(UTOutboxEntry.self, from: $0.json) }
        return decoded.enumerated()
            .sorted { ($0.element.createdAt, $0.offset) < ($1.element.createdAt, $1.offset) }
            .map(\.element)
    }
}
