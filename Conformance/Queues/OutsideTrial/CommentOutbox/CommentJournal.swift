import Foundation

/// One line of the append-only JSON Lines journal.
struct CommentJournalLine: Codable, Sendable {
    enum Event: String, Codable, Sendable { case enqueued, sent, failed, removed }
    enum RemovalReason: String, Codable, Sendable { case delivered, rejected, cancelledLocally, dismissed }

    var event: Event
    var id: String
    var at: Double                 // seconds since 1970
    // enqueued
    var seq: Int? = nil
    var kind: String? = nil
    var postID: String? = nil
    var target: String? = nil      // comment ID or reaction
    var localID: String? = nil
    var key: String? = nil
    var body: Data? = nil          // exact request bytes, built once at enqueue
    // sent / failed
    var attempt: Int? = nil
    var failures: Int? = nil
    var nextAttemptAt: Double? = nil
    var error: String? = nil
    // removed
    var reason: RemovalReason? = nil
    var status: Int? = nil
    var errorCode: String? = nil
}

enum CommentEntryKind: String, Sendable {
    case comment, editComment, addReaction, removeReaction
}

/// An entry as the journal records it (what survives a relaunch).
struct CommentStoredEntry: Sendable {
    var id: String
    var seq: Int
    var kind: CommentEntryKind
    var postID: String
    var target: String?
    var localID: String?
    var body: Data
    var createdAt: Date
    var key: String
    var attempts: Int = 0
    var consecutiveFailures: Int = 0
    var nextAttemptAt: Date? = nil
    var rejectedStatus: Int? = nil
    var rejectedErrorCode: String? = nil

    var enqueuedLine: CommentJournalLine {
        CommentJournalLine(
            event: .enqueued, id: id, at: createdAt.timeIntervalSince1970, seq: seq, kind: kind.rawValue,
            postID: postID, target: target, localID: localID, key: key, body: body)
    }

    func snapshot(state: CommentEntrySnapshot.State) -> CommentEntrySnapshot {
        CommentEntrySnapshot(
            entryID: id, localID: localID, postID: postID, kind: kind.rawValue, idempotencyKey: key,
            body: body, createdAt: createdAt, attempts: attempts, nextAttemptAt: nextAttemptAt, state: state,
            statusCode: rejectedStatus, errorCode: rejectedErrorCode)
    }
}

/// The state folded from the journal.
struct CommentJournalState: Sendable {
    var live: [CommentStoredEntry] = []            // in enqueue order
    var rejected: [CommentStoredEntry] = []        // left the queue, still shown to the user
    var nextSeq = 1
    var lineCount = 0
    var unreadableLines = 0

    static func replay(_ lines: [CommentJournalLine]) -> CommentJournalState {
        var state = CommentJournalState()
        var byID: [String: CommentStoredEntry] = [:]
        var order: [String] = []
        var rejected: [String: CommentStoredEntry] = [:]
        var rejectedOrder: [String] = []
        for line in lines {
            switch line.event {
            case .enqueued:
                guard byID[line.id] == nil, rejected[line.id] == nil,
                      let seq = line.seq, let kindRaw = line.kind, let kind = CommentEntryKind(rawValue: kindRaw),
                      let postID = line.postID, let key = line.key, let body = line.body
                else { continue }
                let entry = CommentStoredEntry(
                    id: line.id, seq: seq, kind: kind, postID: postID, target: line.target,
                    localID: line.localID, body: body, createdAt: Date(timeIntervalSince1970: line.at), key: key)
                byID[line.id] = entry
                order.append(line.id)
                state.nextSeq = max(state.nextSeq, seq + 1)
            case .sent:
                if let attempt = line.attempt, let previous = byID[line.id]?.attempts { byID[line.id]?.attempts = max(previous, attempt) }
            case .failed:
                guard byID[line.id] != nil else { continue }
                if let f = line.failures { byID[line.id]?.consecutiveFailures = f }
                byID[line.id]?.nextAttemptAt = line.nextAttemptAt.map { Date(timeIntervalSince1970: $0) }
                if let attempt = line.attempt, let previous = byID[line.id]?.attempts { byID[line.id]?.attempts = max(previous, attempt) }
            case .removed:
                switch line.reason {
                case .rejected?:
                    if var entry = byID.removeValue(forKey: line.id) {
                        entry.rejectedStatus = line.status
                        entry.rejectedErrorCode = line.errorCode
                        entry.nextAttemptAt = nil
                        rejected[line.id] = entry
                        rejectedOrder.append(line.id)
                    }
                case .dismissed?:
                    rejected.removeValue(forKey: line.id)
                default:
                    byID.removeValue(forKey: line.id)
                }
            }
        }
        state.live = order.compactMap { byID[$0] }.sorted { $0.seq < $1.seq }
        state.rejected = rejectedOrder.compactMap { rejected[$0] }
        state.lineCount = lines.count
        return state
    }

    /// The lines that rebuild this state, for compaction.
    var compactedLines: [CommentJournalLine] {
        var lines: [CommentJournalLine] = []
        for entry in live.sorted(by: { $0.seq < $1.seq }) {
            lines.append(entry.enqueuedLine)
            if entry.attempts > 0 {
                lines.append(CommentJournalLine(event: .sent, id: entry.id, at: entry.createdAt.timeIntervalSince1970, attempt: entry.attempts))
            }
            if entry.consecutiveFailures > 0 || entry.nextAttemptAt != nil {
                lines.append(CommentJournalLine(
                    event: .failed, id: entry.id, at: entry.createdAt.timeIntervalSince1970, attempt: entry.attempts,
                    failures: entry.consecutiveFailures, nextAttemptAt: entry.nextAttemptAt?.timeIntervalSince1970))
            }
        }
        for entry in rejected {
            lines.append(entry.enqueuedLine)
            lines.append(CommentJournalLine(
                event: .removed, id: entry.id, at: entry.createdAt.timeIntervalSince1970, attempt: entry.attempts,
                reason: .rejected, status: entry.rejectedStatus, errorCode: entry.rejectedErrorCode))
        }
        return lines
    }
}

enum CommentJournalFile {
    static let fileName = "outbox.jsonl"

    static func url(in directory: URL) -> URL { directory.appendingPathComponent(fileName) }

    static func makeEncoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    /// Reads every decodable line. A torn last line (the app died mid-write) is skipped.
    static func read(_ url: URL) throws -> (lines: [CommentJournalLine], unreadable: Int) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return ([], 0)
        } catch let error as NSError where error.domain == NSPOSIXErrorDomain && error.code == Int(ENOENT) {
            return ([], 0)
        }
        let decoder = JSONDecoder()
        var lines: [CommentJournalLine] = []
        var unreadable = 0
        for raw in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) {
            if let line = try? decoder.decode(CommentJournalLine.self, from: Data(raw)) {
                lines.append(line)
            } else {
                unreadable += 1
            }
        }
        return (lines, unreadable)
    }

    static func encode(_ line: CommentJournalLine) throws -> Data {
        var data = try makeEncoder().encode(line)
        data.append(UInt8(ascii: "\n"))
        return data
    }
}

/// An append-only file descriptor. Each line goes out in one `write` with `O_APPEND`.
final class CommentAppendOnlyFile: @unchecked Sendable {
    private let fd: Int32
    private let syncEachWrite: Bool

    init(url: URL, syncEachWrite: Bool) throws {
        let fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        self.fd = fd
        self.syncEachWrite = syncEachWrite
    }

    deinit { close(fd) }

    func append(_ data: Data) throws {
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += n
            }
        }
        if syncEachWrite { fsync(fd) }
    }
}
