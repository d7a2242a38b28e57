import Foundation

public protocol RTTaskStore: Sendable {
    func add(_ task: RTTask) throws
    func replace(_ task: RTTask) throws
    func remove(id: UUID) throws
    /// All tasks, in the order they were added.
    func all() throws -> [RTTask]
}

public enum RTStoreError: Error, Equatable {
    case alreadyExists(UUID)
    case missing(UUID)
}

/// Rows are kept as encoded JSON so they round-trip exactly like a persisted file would.
public final class RTMemoryStore: RTTaskStore, @unchecked Sendable {
    private let lock = NSLock()
    private var order: [UUID] = []
    private var rows: [UUID: Data] = [:]
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()

    public init() {}

    public func add(_ task: RTTask) throws {
        lock.lock()
        defer { lock.unlock() }
        guard rows[task.id] == nil else { throw RTStoreError.alreadyExists(task.id) }
        rows[task.id] = try encoder.encode(task)
        order.append(task.id)
    }

    public func replace(_ task: RTTask) throws {
        lock.lock()
        defer { lock.unlock() }
        guard rows[task.id] != nil else { throw RTStoreError.missing(task.id) }
        rows[task.id] = try encoder.encode(task)
    }

    public func remove(id: UUID) throws {
        lock.lock()
        defer { lock.unlock() }
        guard rows.removeValue(forKey: id) != nil else { throw RTStoreError.missing(id) }
        order.removeAll { $0 == id }
    }

    public func all() throws -> [RTTask] {
        lock.lock()
        defer { lock.unlock() }
        return try order.compactMap { id in
            try rows[id].map { try decoder.decode(RTTask.self, from: $0) }
        }
    }
}
