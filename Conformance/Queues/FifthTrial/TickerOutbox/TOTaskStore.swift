import Foundation

public protocol TOTaskStore: Sendable {
    func insert(_ row: TOTaskRow) throws
    func update(_ row: TOTaskRow) throws
    func delete(id: UUID) throws
    /// All rows, in insertion order.
    func loadAll() throws -> [TOTaskRow]
}

public enum TOTaskStoreError: Error, Equatable {
    case duplicateID(UUID)
    case notFound(UUID)
}

/// In-memory store that keeps every row JSON-encoded, the same way it would sit on disk.
public final class TOMemoryStore: TOTaskStore, @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [(id: UUID, json: Data)] = []
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    public init() {}

    public func insert(_ row: TOTaskRow) throws {
        lock.lock()
        defer { lock.unlock() }
        guard !rows.contains(where: { $0.id == row.id }) else {
            throw TOTaskStoreError.duplicateID(row.id)
        }
        rows.append((row.id, try encoder.encode(row)))
    }

    public func update(_ row: TOTaskRow) throws {
        lock.lock()
        defer { lock.unlock() }
        guard let index = rows.firstIndex(where: { $0.id == row.id }) else {
            throw TOTaskStoreError.notFound(row.id)
        }
        rows[index].json = try encoder.encode(row)
    }

    public func delete(id: UUID) throws {
        lock.lock()
        defer { lock.unlock() }
        guard let index = rows.firstIndex(where: { $0.id == id }) else {
            throw TOTaskStoreError.notFound(id)
        }
        rows.remove(at: index)
    }

    public func loadAll() throws -> [TOTaskRow] {
        lock.lock()
        defer { lock.unlock() }
        return try rows.map { try decoder.decode(TOTaskRow.self, from: $0.json) }
    }
}
