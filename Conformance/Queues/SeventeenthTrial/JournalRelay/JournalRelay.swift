import Foundation

// MARK: - Transport

/// The relay endpoint takes self-describing frames: `{"requestId":"…","data":{…}}`. The request
/// ID is the idempotency key (the server follows the IETF idempotency-key draft: 409 = a request
/// with this ID is still being processed, 422 = this ID was used with another frame).
public protocol RelayTransport: Sendable {
    func deliver(_ frame: Data) async throws -> Int      // HTTP status; throws when none came back
}

// MARK: - Journal

/// One line of the append-only journal. Replaying the lines in order rebuilds the outbox.
struct JournalLine: Codable, Sendable {
    enum Kind: String, Codable, Sendable { case add, attempt, retry, stop, done, checkpoint }
    var kind: Kind
    var seq: Int
    var label: String? = nil
    var key: String? = nil
    var frame: Data? = nil
    var createdAt: Date? = nil
    var due: Date? = nil
    var attempts: Int? = nil
    var note: String? = nil
}

/// What the journal says about one write.
public struct RelayItem: Sendable, Equatable {
    public var seq: Int
    public var label: String
    public var key: String
    public var frame: Data              // the exact bytes every attempt sends
    public var createdAt: Date
    public var due: Date                // first send after a short hold, later the backoff's due time
    public var attempts: Int
    public var stoppedBecause: String?
}

struct RelayJournal: Sendable {
    let directory: URL
    var fileURL: URL { directory.appendingPathComponent("relay.journal") }

    func append(_ line: JournalLine) throws {
        var data = try JSONEncoder().encode(line)
        data.append(0x0A)
        if !FileManager.default.fileExists(atPath: fileURL.path) {
            try data.write(to: fileURL, options: [.atomic])
            return
        }
        let handle = try FileHandle(forWritingTo: fileURL)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: data)
        try handle.synchronize()
    }

    /// Replays the journal. A torn last line (power loss mid-append) is ignored.
    func replay() throws -> (items: [Int: RelayItem], nextSeq: Int) {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else { return ([:], 1) }
        var items: [Int: RelayItem] = [:]
        var nextSeq = 1
        let decoder = JSONDecoder()
        for raw in data.split(separator: 0x0A) {
            guard let line = try? decoder.decode(JournalLine.self, from: Data(raw)) else { continue }
            nextSeq = max(nextSeq, line.kind == .checkpoint ? line.seq : line.seq + 1)
            switch line.kind {
            case .add:
                guard let label = line.label, let key = line.key, let frame = line.frame,
                      let createdAt = line.createdAt, let due = line.due else { continue }
                items[line.seq] = RelayItem(seq: line.seq, label: label, key: key, frame: frame,
                                            createdAt: createdAt, due: due, attempts: line.attempts ?? 0,
                                            stoppedBecause: line.note)
            case .attempt: items[line.seq]?.attempts = line.attempts ?? 0
            case .retry: if let due = line.due { items[line.seq]?.due = due }
            case .stop: items[line.seq]?.stoppedBecause = line.note ?? "stopped"
            case .done: items[line.seq] = nil
            case .checkpoint: break                        // high-water mark, read above
            }
        }
        return (items, nextSeq)
    }

    /// Rewrites the journal as one line per live write plus the sequence high-water mark.
    func compact(_ items: [Int: RelayItem], nextSeq: Int) throws {
        let encoder = JSONEncoder()
        var data = Data()
        for item in items.values.sorted(by: { $0.seq < $1.seq }) {
            data.append(try encoder.encode(JournalLine(
                kind: .add, seq: item.seq, label: item.label, key: item.key, frame: item.frame,
                createdAt: item.createdAt, due: item.due, attempts: item.attempts, note: item.stoppedBecause)))
            data.append(0x0A)
        }
        data.append(try encoder.encode(JournalLine(kind: .checkpoint, seq: nextSeq)))
        data.append(0x0A)
        try data.write(to: fileURL, options: [.atomic])
    }
}

// MARK: - Relay

/// Outbox for the sync relay. A class with a lock (it is shared by the app's scene delegate
/// and its background refresh handler), an append-only journal, keys made of a per-launch
/// prefix and a journal sequence number, and the key inside the body.
public final class JournalRelay: @unchecked Sendable {
    static let holdBeforeFirstSend: TimeInterval = 2     // a burst from one screen leaves in one radio wake-up
    static let backoffBase: TimeInterval = 1
    static let backoffCap: TimeInterval = 20
    static let retryable: Set<Int> = [408, 409, 425, 429]  // 409: still processing (IETF draft)

    private struct State {
        var items: [Int: RelayItem]
        var nextSeq: Int
        var leased: Set<Int> = []                         // in flight from this process
        var log: [String] = []
    }

    private let journal: RelayJournal
    private let launchPrefix: String
    private let transport: any RelayTransport
    private let now: @Sendable () -> Date
    private let lock = NSLock()
    private var state: State

    public init(directory: URL, transport: any RelayTransport, now: @escaping @Sendable () -> Date) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        journal = RelayJournal(directory: directory)
        // A fresh prefix per launch: keys stay unique even when a device backup holding this
        // journal is restored onto two phones (a stored install ID would be copied with it).
        launchPrefix = String(UInt64.random(in: .min ... .max), radix: 36)
        self.transport = transport
        self.now = now
        let (items, nextSeq) = try journal.replay()
        try journal.compact(items, nextSeq: nextSeq)
        state = State(items: items, nextSeq: nextSeq)
    }

    public static func storedItems(in directory: URL) throws -> [RelayItem] {
        try RelayJournal(directory: directory).replay().items.values.sorted { $0.seq < $1.seq }
    }

    public var log: [String] { lock.withLock { state.log } }

    /// Adds a write. Its frame, key and sequence number are in the journal when this returns.
    public func enqueue(_ payload: Data, label: String) throws {
        try lock.withLock {
            let seq = state.nextSeq
            let key = "\(launchPrefix)-\(String(seq, radix: 36))"
            var frame = Data("{\"requestId\":\"\(key)\",\"data\":".utf8)
            frame.append(payload)
            frame.append(contentsOf: Array("}".utf8))
            let created = now()
            let item = RelayItem(seq: seq, label: label, key: key, frame: frame, createdAt: created,
                                 due: created.addingTimeInterval(Self.holdBeforeFirstSend),
                                 attempts: 0, stoppedBecause: nil)
            try journal.append(JournalLine(kind: .add, seq: seq, label: label, key: key, frame: frame,
                                           createdAt: created, due: item.due, attempts: 0))
            state.nextSeq = seq + 1
            state.items[seq] = item
            state.log.append("queued \(label) as #\(seq)")
        }
    }

    /// One drain: claims every due write (newest first) and sends them all at once. Writes on
    /// hold or backing off are left for a later drain; nothing here waits on a timer.
    public func drain() async {
        let claimed: [RelayItem] = lock.withLock {
            let current = now()
            let due = state.items.values
                .filter { $0.stoppedBecause == nil && !state.leased.contains($0.seq) && $0.due <= current }
                .sorted { $0.seq > $1.seq }
            var out: [RelayItem] = []
            for var item in due {
                item.attempts += 1
                do {
                    try journal.append(JournalLine(kind: .attempt, seq: item.seq, attempts: item.attempts))
                } catch {
                    state.log.append("#\(item.seq): journal unavailable, not sent")
                    continue
                }
                state.items[item.seq] = item
                state.leased.insert(item.seq)
                out.append(item)
            }
            return out
        }
        await withTaskGroup(of: Void.self) { group in
            for item in claimed {
                group.addTask { await self.send(item) }
            }
        }
    }

    private func send(_ item: RelayItem) async {
        let status: Int?
        let failure: String?
        do {
            let answered = try await transport.deliver(item.frame)
            status = answered
            failure = nil
        } catch {
            status = nil
            failure = error is CancellationError ? "cancelled" : String(describing: type(of: error))
        }
        lock.withLock {
            defer { state.leased.remove(item.seq) }
            switch status {
            case .some(let code) where (200..<300).contains(code):
                finish(item.seq, "#\(item.seq) \(item.label) delivered (\(code))", line: JournalLine(kind: .done, seq: item.seq))
                state.items[item.seq] = nil
            case .some(let code) where (400..<500).contains(code) && !Self.retryable.contains(code):
                let reason = code == 422
                    ? "422: the relay holds another frame under this request ID"
                    : "HTTP \(code): rejected, needs a person"
                state.items[item.seq]?.stoppedBecause = reason
                finish(item.seq, "#\(item.seq) \(item.label) stopped: \(reason)",
                       line: JournalLine(kind: .stop, seq: item.seq, note: reason))
            default:
                // 5xx, 3xx, 409 (still processing), 408/425/429, or no answer: try again later.
                let ceiling = min(Self.backoffCap, Self.backoffBase * pow(2, Double(min(item.attempts - 1, 20))))
                let delay = ceiling / 2 + Double.random(in: 0...(ceiling / 2))
                let due = now().addingTimeInterval(delay)
                state.items[item.seq]?.due = due
                let what = status.map { "HTTP \($0)" } ?? "no answer (\(failure ?? "?"))"
                finish(item.seq, "#\(item.seq) \(item.label) attempt \(item.attempts): \(what), retry in \(String(format: "%.1f", delay)) s",
                       line: JournalLine(kind: .retry, seq: item.seq, due: due))
            }
        }
    }

    /// Journals an outcome and logs it; called with the lock held.
    private func finish(_ seq: Int, _ message: String, line: JournalLine) {
        do {
            try journal.append(line)
        } catch {
            state.log.append("#\(seq): could not journal the outcome")
        }
        state.log.append(message)
    }
}
