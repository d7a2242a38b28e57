import Foundation

/// File-per-operation storage: `<directory>/<uuid>.json` for queued work,
/// `<directory>/failed/<uuid>.json` for work the server rejected.
///
/// Every write is atomic (write to a temporary file, then rename), so a crash leaves either
/// the old file or the new one.
struct JitterOutboxStore: Sendable {
    let directory: URL

    var failedDirectory: URL { directory.appendingPathComponent("failed", isDirectory: true) }

    init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: failedDirectory, withIntermediateDirectories: true)
    }

    func save(_ operation: OutboxOperation) throws {
        try Self.encoder().encode(operation).write(to: url(for: operation.id), options: .atomic)
    }

    func remove(_ id: UUID) throws {
        let file = url(for: id)
        if FileManager.default.fileExists(atPath: file.path) {
            try FileManager.default.removeItem(at: file)
        }
    }

    /// Every queued operation, in no particular order. Files that cannot be read are skipped.
    func loadAll() throws -> [OutboxOperation] {
        try Self.jsonFiles(in: directory).compactMap { file in
            try? Self.decoder().decode(OutboxOperation.self, from: Data(contentsOf: file))
        }
    }

    func loadFailed() throws -> [FailedOperation] {
        try Self.jsonFiles(in: failedDirectory).compactMap { file in
            try? Self.decoder().decode(FailedOperation.self, from: Data(contentsOf: file))
        }
    }

    /// Moves an operation to `failed/`. The failed record is written first: a crash in between
    /// leaves both files, and `restore()` finishes the move.
    func markFailed(_ operation: OutboxOperation, statusCode: Int, at date: Date) throws {
        var stopped = operation
        stopped.status = .pending
        let record = FailedOperation(operation: stopped, statusCode: statusCode, failedAt: date)
        let file = failedDirectory.appendingPathComponent("\(operation.id.uuidString).json")
        try Self.encoder().encode(record).write(to: file, options: .atomic)
        try remove(operation.id)
    }

    /// Run once per launch, before anything is sent: a previous process may have died with
    /// requests in flight. Those become pending again (same key, same bytes).
    /// Returns how many operations are queued and how many were reset.
    @discardableResult
    func restore() throws -> (queued: Int, reset: Int) {
        let failedIDs = Set(try loadFailed().map(\.operation.id))
        var queued = 0
        var reset = 0
        for operation in try loadAll() {
            if failedIDs.contains(operation.id) {
                try remove(operation.id)
                continue
            }
            queued += 1
            if operation.status == .inFlight {
                var restored = operation
                restored.status = .pending
                try save(restored)
                reset += 1
            }
        }
        return (queued, reset)
    }

    // MARK: - Files

    private func url(for id: UUID) -> URL {
        directory.appendingPathComponent("\(id.uuidString).json")
    }

    /// Only `<uuid>.json`: skips temporary files left by an interrupted atomic write.
    private static func jsonFiles(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { file in
                file.pathExtension == "json"
                    && UUID(uuidString: file.deletingPathExtension().lastPathComponent) != nil
            }
    }

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static func decoder() -> JSONDecoder { JSONDecoder() }
}
