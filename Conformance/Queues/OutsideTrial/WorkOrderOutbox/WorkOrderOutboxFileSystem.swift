// From an outside trial (trial 36): written from the docs alone by an author who had read only
// the kit's README, Docs and public API; bundled as written, with its names changed only.

import Foundation

/// The few file operations the outbox needs. Injected so previews and unit tests can use
/// `WorkOrderInMemoryOutboxFileSystem`; the app uses `WorkOrderDirectoryOutboxFileSystem`.
public protocol WorkOrderOutboxFileSystem: Sendable {
    /// Names of the files currently in the outbox directory (no order implied).
    func fileNames() throws -> [String]
    /// The file's contents, or `nil` when it does not exist (any more).
    func contents(of name: String) throws -> Data?
    /// Replaces the file in one step: readers see the old or the new bytes, never a mix.
    func writeAtomically(_ data: Data, to name: String) throws
    /// Removes the file; removing a missing file is not an error.
    func removeFile(named name: String) throws
}

/// One directory on disk, typically `Application Support/Outbox`.
public struct WorkOrderDirectoryOutboxFileSystem: WorkOrderOutboxFileSystem {
    public let directory: URL

    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    public func fileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
    }

    public func contents(of name: String) throws -> Data? {
        let url = directory.appendingPathComponent(name)
        do {
            return try Data(contentsOf: url)
        } catch {
            // Deleted between listing and reading: treat as gone.
            if !FileManager.default.fileExists(atPath: url.path) { return nil }
            throw error
        }
    }

    public func writeAtomically(_ data: Data, to name: String) throws {
        try data.write(to: directory.appendingPathComponent(name), options: .atomic)
    }

    public func removeFile(named name: String) throws {
        let url = directory.appendingPathComponent(name)
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            if FileManager.default.fileExists(atPath: url.path) { throw error }
        }
    }
}

/// A stand-in for tests and SwiftUI previews. Survives "relaunches" as long as the same
/// instance is handed to the next outbox.
public final class WorkOrderInMemoryOutboxFileSystem: WorkOrderOutboxFileSystem, @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: Data] = [:]

    public init() {}

    public func fileNames() throws -> [String] { lock.withLock { Array(files.keys) } }
    public func contents(of name: String) throws -> Data? { lock.withLock { files[name] } }
    public func writeAtomically(_ data: Data, to name: String) throws { lock.withLock { files[name] = data } }
    public func removeFile(named name: String) throws { lock.withLock { _ = files.removeValue(forKey: name) } }
}
