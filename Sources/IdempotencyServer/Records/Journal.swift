#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The append-only file that makes records durable: one JSON line per committed record,
/// flushed to disk (`fsync`) before the server answers.
///
/// Only the tail of an append-only file can be torn by a crash, and a torn line was never
/// acknowledged (the answer is written after the flush). Replay therefore drops an
/// incomplete or unreadable last line, truncates the file back to the last complete record,
/// and refuses to start on damage anywhere else.
///
/// Once ``open(path:)`` returns, its mutable fields are read and written only while
/// `condition` is locked: a condition variable rather than the kit's `Locked`, because an
/// append waits on it for the flush that covers its line.
final class Journal: @unchecked Sendable {
    /// Why a journal cannot be used.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What replay found.
    struct Replay {
        /// The committed records, in file order.
        var records: [StoredRecord]
        /// How many bytes of torn tail were dropped (0 for a clean file).
        var droppedTailBytes: Int
    }

    let path: String
    private let fd: Int32
    private let condition = NSCondition()
    /// Lines waiting for the next flush.
    private var pending: [UInt8] = []
    /// How many appends were queued, and how many of those the flushes have settled.
    private var queued = 0
    private var settled = 0
    private var flushing = false
    /// Appends (by queue position) whose flush failed.
    private var failures: [(range: ClosedRange<Int>, error: Failure)] = []
    /// The length of the file's durable prefix.
    private var durableSize: off_t = 0

    private init(path: String, fd: Int32) {
        self.path = path
        self.fd = fd
    }

    /// Opens (creating if needed) the journal at `path` and replays it.
    /// - Throws: ``Failure`` when the file cannot be opened or is damaged before its tail.
    static func open(path: String) throws -> (Journal, Replay) {
        let existed = FileManager.default.fileExists(atPath: path)
        let fd = path.withCString { systemOpen($0, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644) }
        guard fd >= 0 else {
            throw Failure(description: "cannot open journal \(path): \(SystemSocket.describe(errno))")
        }
        let journal = Journal(path: path, fd: fd)
        do {
            let replay = try journal.replay()
            if !existed { syncDirectory(of: path) }
            return (journal, replay)
        } catch {
            journal.close()
            throw error
        }
    }

    private func replay() throws -> Replay {
        let bytes = try readAll()
        var records: [StoredRecord] = []
        var seenKeys = Set<String>()
        var lineStart = 0
        var validEnd = 0
        var lineNumber = 0
        while lineStart < bytes.count {
            lineNumber += 1
            guard let newline = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) else {
                break  // torn tail: no newline, never acknowledged
            }
            let line = Array(bytes[lineStart..<newline])
            let isLast = newline + 1 >= bytes.count
            if let record = StoredRecord(journalLine: line), !seenKeys.contains(record.key) {
                seenKeys.insert(record.key)
                records.append(record)
                validEnd = newline + 1
            } else if isLast {
                break  // a damaged last line is a torn write as well
            } else {
                throw Failure(
                    description: "journal \(path) is damaged at line \(lineNumber) (not a record, "
                        + "or a second record for one key); refusing to start rather than lose records")
            }
            lineStart = newline + 1
        }
        let dropped = bytes.count - validEnd
        durableSize = off_t(validEnd)
        if dropped > 0 {
            guard ftruncate(fd, off_t(validEnd)) == 0 else {
                throw Failure(description: "cannot truncate the torn tail of \(path): \(SystemSocket.describe(errno))")
            }
            try flush()
        }
        return Replay(records: records, droppedTailBytes: dropped)
    }

    private func readAll() throws -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var offset: off_t = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot read journal \(path): \(SystemSocket.describe(errno))")
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
            offset += off_t(count)
        }
    }

    /// Appends one record and returns once it is on disk.
    ///
    /// Appends that arrive while another thread is flushing are written and flushed together
    /// by the next one (group commit): one `fsync` covers them all, and none returns before
    /// its own line is durable.
    /// - Throws: ``Failure`` when the write or the flush fails; the record is then not durable,
    ///   and the file is cut back to its last durable byte.
    func append(_ record: StoredRecord) throws {
        let line = Array((record.journalLine + "\n").utf8)
        condition.lock()
        defer { condition.unlock() }
        pending.append(contentsOf: line)
        queued += 1
        let ticket = queued
        while settled < ticket {
            if flushing {
                condition.wait()
                continue
            }
            flushing = true
            let batch = pending
            let range = (settled + 1)...queued
            pending = []
            condition.unlock()
            var failure: Failure?
            do {
                try writeAll(batch)
                try flush()
            } catch {
                failure = error as? Failure ?? Failure(description: "\(error)")
            }
            condition.lock()
            if let failure {
                failures.append((range, failure))
                _ = ftruncate(fd, durableSize)
            } else {
                durableSize += off_t(batch.count)
            }
            settled = range.upperBound
            flushing = false
            condition.broadcast()
        }
        if let failure = failures.first(where: { $0.range.contains(ticket) }) { throw failure.error }
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Failure(description: "cannot append to \(path): \(SystemSocket.describe(errno))")
                }
                offset += written
            }
        }
    }

    /// Empties the journal (used by `POST /reset`).
    func removeAll() throws {
        condition.lock()
        defer { condition.unlock() }
        while flushing || !pending.isEmpty { condition.wait() }
        guard ftruncate(fd, 0) == 0 else {
            throw Failure(description: "cannot truncate \(path): \(SystemSocket.describe(errno))")
        }
        durableSize = 0
        try flush()
    }

    private func flush() throws {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(fd) == 0 else {
            throw Failure(description: "cannot flush \(path) to disk: \(SystemSocket.describe(errno))")
        }
    }

    /// Closes the file.
    func close() {
        SystemSocket.close(fd)
    }

    /// Flushes the directory entry of a newly created file, so the file itself survives a crash.
    private static func syncDirectory(of path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        let dirFD = (directory.isEmpty ? "." : directory).withCString { systemOpen($0, O_RDONLY | O_CLOEXEC, 0) }
        guard dirFD >= 0 else { return }
        _ = fsync(dirFD)
        SystemSocket.close(dirFD)
    }
}

/// `open(2)`, named apart from `Journal.open`.
private func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t) -> Int32 {
    open(path, flags, mode)
}
