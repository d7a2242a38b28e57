import Foundation

/// A pending change to an employee's payroll profile (bank details, tax forms), as stored on disk.
struct PayrollPendingChange: Codable, Sendable, Equatable {
    enum State: String, Codable, Sendable { case waiting, blocked }

    var id: UUID
    var clientReference: String
    var idempotencyKey: String
    var payload: Data
    var createdAt: Date
    var state: State = .waiting
    var attempts = 0
    var consecutiveFailures = 0
    var nextAttemptAt: Date?
    var blockedReason: String?
}

/// All pending changes in one property list, rewritten atomically on every change. Small by
/// design: a profile has a handful of edits in flight at most.
final class PendingChangeStore: @unchecked Sendable {
    private let fileURL: URL
    private let lock = NSLock()
    private var changes: [PayrollPendingChange]

    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        fileURL = directory.appendingPathComponent("PendingChanges.plist")
        changes = try Self.load(fileURL)
    }

    static func load(_ url: URL) throws -> [PayrollPendingChange] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        return try PropertyListDecoder().decode([PayrollPendingChange].self, from: data)
    }

    static func contents(of directory: URL) throws -> [PayrollPendingChange] {
        try load(directory.appendingPathComponent("PendingChanges.plist"))
    }

    func insert(_ change: PayrollPendingChange) throws {
        try lock.withLock {
            changes.append(change)
            try save()
        }
    }

    func change(_ id: UUID) -> PayrollPendingChange? {
        lock.withLock { changes.first { $0.id == id } }
    }

    func due(at date: Date) -> [PayrollPendingChange] {
        lock.withLock {
            changes.filter { $0.state == .waiting && ($0.nextAttemptAt ?? .distantPast) <= date }
                .sorted { $0.createdAt < $1.createdAt }
        }
    }

    func update(_ id: UUID, _ body: (inout PayrollPendingChange) -> Void) throws {
        try lock.withLock {
            guard let index = changes.firstIndex(where: { $0.id == id }) else { return }
            body(&changes[index])
            try save()
        }
    }

    func remove(_ id: UUID) throws {
        try lock.withLock {
            changes.removeAll { $0.id == id }
            try save()
        }
    }

    private func save() throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        try encoder.encode(changes).write(to: fileURL, options: .atomic)
    }
}
