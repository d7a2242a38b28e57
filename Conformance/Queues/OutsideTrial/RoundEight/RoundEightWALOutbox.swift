// From an outside trial (round eight): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation

/// Offline outbox backed by a write-ahead log.
///
/// `ops.jsonl` gets one JSON line per enqueued operation (its idempotency key and the exact
/// body bytes); `acks.jsonl` gets one line per final answer (delivered, or rejected by the
/// server). At launch the state is rebuilt by replaying both files: an operation without an
/// ack line is still owed to the server.
actor RoundEightWALOutbox {
    struct Entry: Codable, Sendable, Equatable {
        let id: UUID
        let label: String
        let idempotencyKey: String
        let body: Data
        let enqueuedAt: Date
    }

    struct Ack: Codable, Sendable, Equatable {
        enum Outcome: String, Codable, Sendable { case delivered, rejected }
        let id: UUID
        let outcome: Outcome
        let status: Int
        let note: String?
    }

    struct Replayed: Sendable {
        var entries: [Entry] = []
        var acks: [UUID: Ack] = [:]
    }

    typealias Post = @Sendable (_ idempotencyKey: String, _ body: Data) async throws -> Int

    static let retryableClientErrors: Set<Int> = [408, 429]

    private let opsURL: URL
    private let acksURL: URL
    private let post: Post
    private let now: @Sendable () -> Date
    private var entries: [Entry]
    private var acks: [UUID: Ack]
    private var sending: Set<UUID> = []
    private(set) var log: [String] = []

    init(directory: URL, post: @escaping Post, now: @escaping @Sendable () -> Date = Date.init) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        opsURL = directory.appendingPathComponent("ops.jsonl")
        acksURL = directory.appendingPathComponent("acks.jsonl")
        self.post = post
        self.now = now
        let state = try Self.replay(directory: directory)
        entries = state.entries
        acks = state.acks
    }

    // MARK: Public API

    @discardableResult
    func enqueue(label: String, body: Data) throws -> UUID {
        let entry = Entry(id: UUID(), label: label, idempotencyKey: UUID().uuidString, body: body, enqueuedAt: now())
        try Self.appendLine(entry, to: opsURL)   // durable before anyone can send it
        entries.append(entry)
        return entry.id
    }

    /// Sends every operation that has no ack yet and is not already being sent.
    func flush() async {
        let batch = entries.filter { acks[$0.id] == nil && !sending.contains($0.id) }
        for entry in batch { sending.insert(entry.id) }
        for entry in batch {
            defer { sending.remove(entry.id) }
            guard acks[entry.id] == nil else { continue }
            do {
                let status = try await post(entry.idempotencyKey, entry.body)
                handle(status: status, for: entry)
            } catch {
                log.append("outbox: \(entry.id.uuidString) no answer (\(Self.describe(error))), kept for the next sync")
            }
        }
    }

    var pendingCount: Int { entries.filter { acks[$0.id] == nil }.count }

    // MARK: Answers

    private func handle(status: Int, for entry: Entry) {
        switch status {
        case 200..<300:
            record(Ack(id: entry.id, outcome: .delivered, status: status, note: nil))
        case _ where Self.retryableClientErrors.contains(status):
            log.append("outbox: \(entry.id.uuidString) HTTP \(status), kept for the next sync")
        case 409:
            record(Ack(id: entry.id, outcome: .rejected, status: status,
                       note: "HTTP 409: the server already holds a different request under this key"))
        case 400..<500:
            record(Ack(id: entry.id, outcome: .rejected, status: status, note: "HTTP \(status): rejected by the server"))
        default:
            log.append("outbox: \(entry.id.uuidString) HTTP \(status), kept for the next sync")
        }
    }

    private func record(_ ack: Ack) {
        do {
            try Self.appendLine(ack, to: acksURL)
            acks[ack.id] = ack
            log.append("outbox: \(ack.id.uuidString) \(ack.outcome.rawValue) (HTTP \(ack.status))")
        } catch {
            // Not acknowledged on disk: keep it owed, a resend under the same key is harmless.
            log.append("outbox: \(ack.id.uuidString) could not write ack: \(Self.describe(error))")
        }
    }

    private static func describe(_ error: any Error) -> String {
        String(describing: type(of: error)) + "." + String(describing: error).prefix(40)
    }

    // MARK: Files

    private static func appendLine<T: Encodable>(_ value: T, to url: URL) throws {
        var data = try JSONEncoder().encode(value)
        data.append(0x0A)
        if !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown)
            }
        }
        let handle = try FileHandle(forWritingTo: url)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
        try handle.synchronize()
    }

    private static func lines<T: Decodable>(of url: URL, as type: T.Type) throws -> [T] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let data = try handle.readToEnd() ?? Data()
        let decoder = JSONDecoder()
        // A torn last line (crash mid-append) is skipped.
        return data.split(separator: 0x0A).compactMap { try? decoder.decode(T.self, from: Data($0)) }
    }

    /// Rebuilds the state from the two logs. Also used to inspect the outbox without opening it.
    static func replay(directory: URL) throws -> Replayed {
        var state = Replayed()
        var seen = Set<UUID>()
        for entry in try lines(of: directory.appendingPathComponent("ops.jsonl"), as: Entry.self)
        where seen.insert(entry.id).inserted {
            state.entries.append(entry)
        }
        for ack in try lines(of: directory.appendingPathComponent("acks.jsonl"), as: Ack.self)
        where state.acks[ack.id] == nil {
            state.acks[ack.id] = ack
        }
        return state
    }
}
