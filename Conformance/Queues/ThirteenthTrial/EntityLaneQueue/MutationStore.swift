import Foundation

/// The durable half of the queue: one JSON file per pending mutation in a directory.
/// Writes are atomic (write to a temporary file, then rename), so a crash leaves either the old
/// or the new version of a file, never half of one.
public struct MutationStore: Sendable {
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    public func prepare() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Every stored mutation, oldest first (by sequence, then creation time).
    public func loadAll() throws -> [PendingMutation] {
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        let decoder = JSONDecoder()
        let files = try FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "json" }
        var mutations: [PendingMutation] = []
        for file in files {
            // A file that cannot be decoded is left where it is (for support to inspect)
            // rather than deleted: it may be a user's only copy of an edit.
            guard let data = try? Data(contentsOf: file),
                  let mutation = try? decoder.decode(PendingMutation.self, from: data)
            else { continue }
            mutations.append(mutation)
        }
        return mutations.sorted {
            ($0.sequence, $0.createdAt.timeIntervalSinceReferenceDate)
                < ($1.sequence, $1.createdAt.timeIntervalSinceReferenceDate)
        }
    }

    public func load(_ id: UUID) throws -> PendingMutation? {
        let url = fileURL(for: id)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try JSONDecoder().decode(PendingMutation.self, from: Data(contentsOf: url))
    }

    public func save(_ mutation: PendingMutation) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(mutation)
        try data.write(to: fileURL(for: mutation.id), options: .atomic)
    }

    public func delete(_ id: UUID) throws {
        let url = fileURL(for: id)
        if FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.removeItem(at: url)
        }
    }

    private func fileURL(for id: UUID) -> URL {
        directory.appendingPathComponent("\(id.uuidString).json")
    }
}
