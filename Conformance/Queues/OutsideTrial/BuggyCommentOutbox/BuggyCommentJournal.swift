import Foundation

/// An entry as the journal stores it: what `BuggyCommentOutbox.readJournal(in:)` returns and
/// what a launch restores from.
public struct BuggyCommentStoredEntry: Sendable, Equatable {
    public enum State: String, Sendable, Equatable {
        /// Waiting to be sent, or waiting for its next retry.
        case pending
        /// Stopped by a client error; kept for the UI ("Couldn't post: edit / discard").
        case rejected
    }

    public var entryID: String
    public var localID: String?
    public var postID: String
    public var method: String
    public var path: String
    public var idempotencyKey: String
    public var body: Data
    public var attempts: Int
    public var createdAt: Date
    public var state: State
    /// The last HTTP status received, if any (the rejecting one for a rejected entry).
    public var statusCode: Int?
    /// When the next attempt is due, after a failed one.
    public var retryAt: Date?
}

/// One line of the journal. Every line carries the entry it is about; the other fields depend
/// on the event.
struct BuggyCommentJournalLine: Codable, Sendable {
    enum Event: String, Codable, Sendable {
        case enqueued, sent, failed, removed
    }

    var event: Event
    var entryID: String
    var at: Date

    // enqueued
    var localID: String?
    var postID: String?
    var method: String?
    var path: String?
    var idempotencyKey: String?
    var body: Data?

    // failed
    var statusCode: Int?
    var error: String?
    var retryAt: Date?
    var rejected: Bool?

    init(event: Event, entryID: String, at: Date) {
        self.event = event
        self.entryID = entryID
        self.at = at
    }
}

/// The append-only JSON Lines file behind the outbox. Lines are only ever appended; a launch
/// folds them into the current entries. A line cut short by a crash is skipped.
struct BuggyCommentJournal: Sendable {
    static let fileName = "comment-outbox.jsonl"

    let fileURL: URL

    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        fileURL = directory.appendingPathComponent(Self.fileName, isDirectory: false)
        if !FileManager.default.fileExists(atPath: fileURL.path) {
            guard FileManager.default.createFile(atPath: fileURL.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: fileURL.path])
            }
        } else {
            try terminateTornLine()
        }
    }

    /// Appends one event. Returns only once the line is in the file.
    func append(_ line: BuggyCommentJournalLine) throws {
        var data = try Self.makeEncoder().encode(line)
        data.append(0x0A)
        let handle = try FileHandle(forWritingTo: fileURL)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
    }

    /// The stored entries of the journal in `directory`, oldest first; none if there is no journal.
    static func read(in directory: URL) throws -> [BuggyCommentStoredEntry] {
        let url = directory.appendingPathComponent(fileName, isDirectory: false)
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return replay(try Data(contentsOf: url))
    }

    static func replay(_ data: Data) -> [BuggyCommentStoredEntry] {
        let decoder = makeDecoder()
        var order: [String] = []
        var entries: [String: BuggyCommentStoredEntry] = [:]

        for rawLine in data.split(separator: 0x0A, omittingEmptySubsequences: true) {
            // A torn last line (the app died mid-write) does not decode: skip it.
            guard let line = try? decoder.decode(BuggyCommentJournalLine.self, from: Data(rawLine)) else { continue }
            switch line.event {
            case .enqueued:
                guard entries[line.entryID] == nil,
                    let postID = line.postID, let key = line.idempotencyKey, let body = line.body
                else { continue }
                order.append(line.entryID)
                entries[line.entryID] = BuggyCommentStoredEntry(
                    entryID: line.entryID, localID: line.localID, postID: postID,
                    method: line.method ?? "POST", path: line.path ?? "/v2/posts/\(postID)/comments",
                    idempotencyKey: key, body: body, attempts: 0, createdAt: line.at,
                    state: .pending, statusCode: nil, retryAt: nil)
            case .sent:
                entries[line.entryID]?.attempts += 1
            case .failed:
                guard var entry = entries[line.entryID] else { continue }
                entry.statusCode = line.statusCode ?? entry.statusCode
                if line.rejected == true {
                    entry.state = .rejected
                    entry.retryAt = nil
                } else {
                    entry.retryAt = line.retryAt
                }
                entries[line.entryID] = entry
            case .removed:
                entries[line.entryID] = nil
            }
        }
        return order.compactMap { entries[$0] }
    }

    /// A journal whose last write was cut short ends without a newline: end that line, so the
    /// next event starts on a line of its own.
    private func terminateTornLine() throws {
        let handle = try FileHandle(forUpdating: fileURL)
        defer { try? handle.close() }
        let size = try handle.seekToEnd()
        guard size > 0 else { return }
        try handle.seek(toOffset: size - 1)
        let last = try handle.read(upToCount: 1)
        if last != Data([0x0A]) {
            try handle.seekToEnd()
            try handle.write(contentsOf: Data([0x0A]))
        }
    }

    private static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .deferredToDate  // seconds since 2001, exact
        encoder.dataEncodingStrategy = .base64
        return encoder
    }

    private static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        decoder.dataDecodingStrategy = .base64
        return decoder
    }
}
