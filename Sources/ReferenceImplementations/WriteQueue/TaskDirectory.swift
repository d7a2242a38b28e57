import Foundation

/// The durable storage of ``FileWriteQueue``: one JSON file per task in a directory, each
/// written atomically (a crash leaves the old file or the new one, never half of one).
package struct TaskDirectory: Sendable {
    /// The directory.
    package let url: URL

    /// Storage in `url`, created if needed.
    /// - Throws: When the directory cannot be created.
    package init(url: URL) throws {
        self.url = url
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Every stored task, in submit order.
    package func load() throws -> [StoredTask] {
        let decoder = JSONDecoder()
        return try FileManager.default.contentsOfDirectory(atPath: url.path)
            .filter { $0.hasPrefix("task-") && $0.hasSuffix(".json") }
            .map { try decoder.decode(StoredTask.self, from: Data(contentsOf: url.appendingPathComponent($0))) }
            .sorted { $0.sequence < $1.sequence }
    }

    /// Writes `task` atomically, replacing its previous version.
    package func save(_ task: StoredTask) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(task).write(to: file(for: task), options: .atomic)
    }

    /// Removes `task` (it completed).
    package func remove(_ task: StoredTask) throws {
        try FileManager.default.removeItem(at: file(for: task))
    }

    /// The sequence number for a new task: one more than any stored.
    package func nextSequence() throws -> Int {
        (try load().map(\.sequence).max() ?? 0) + 1
    }

    private func file(for task: StoredTask) -> URL {
        url.appendingPathComponent("task-\(task.sequence).json")
    }
}
