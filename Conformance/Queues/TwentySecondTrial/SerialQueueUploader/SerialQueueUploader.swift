import Foundation

struct Trial22UploadRequest: Sendable {
    var path: String
    var headers: [String: String]
    var body: Data
}

struct UploadReply: Sendable {
    var status: Int
    var body: Data
}

/// The app's network layer (URLSession-style): calls back on a thread of its own choosing.
protocol UploadNetworking: Sendable {
    func upload(_ request: Trial22UploadRequest, completion: @escaping @Sendable (Result<UploadReply, any Error>) -> Void)
}

/// Background upload queue in the classic GCD style: every piece of mutable state below is read
/// and written only on `stateQueue`, which is what makes the `@unchecked Sendable` hold. The
/// journal is one JSON document rewritten whole (sorted keys) after every change; which uploads
/// are on the wire is process memory only.
final class SerialQueueUploader: @unchecked Sendable {
    struct Journal: Codable {
        var formatVersion = 1
        var entries: [Entry] = []
    }

    struct Entry: Codable {
        enum State: String, Codable {
            case waiting
            case held
        }

        var id: String
        var tag: String
        var idempotencyKey: String
        /// The submitted bytes, untouched (base64 in the journal).
        var payload: Data
        var queuedAtMillis: Int64
        var tries: Int
        var retryAtMillis: Int64?
        var state: State
        var heldBecause: String?
    }

    /// One sending pass: its uploads on the wire and what it has already tried.
    /// Touched only on `stateQueue`.
    private final class Pass: @unchecked Sendable {
        var active = 0
        var tried: Set<String> = []
        let finished: @Sendable () -> Void

        init(finished: @escaping @Sendable () -> Void) { self.finished = finished }
    }

    static let maxConcurrentUploads = 2
    /// Seconds to wait after the n-th failed try; the last step is the cap.
    static let retrySchedule: [Int64] = [1, 2, 5, 10, 20, 45]

    private let stateQueue = DispatchQueue(label: "com.example.uploads.state")
    private let journalURL: URL
    private let network: any UploadNetworking
    private let now: @Sendable () -> Date
    private var journal: Journal
    private var uploading: Set<String> = []
    private var events: [String] = []

    init(journalURL: URL, network: any UploadNetworking, now: @escaping @Sendable () -> Date = { Date() }) throws {
        self.journalURL = journalURL
        self.network = network
        self.now = now
        self.journal = try SerialQueueUploader.readJournal(at: journalURL)
    }

    // MARK: Submitting

    func enqueue(tag: String, payload: Data, completion: @escaping @Sendable ((any Error)?) -> Void) {
        stateQueue.async {
            let entry = Entry(
                id: UUID().uuidString, tag: tag, idempotencyKey: UUID().uuidString, payload: payload,
                queuedAtMillis: Self.millis(self.now()), tries: 0, retryAtMillis: nil,
                state: .waiting, heldBecause: nil)
            self.journal.entries.append(entry)
            do {
                try self.writeJournal()
                self.record("queued \(tag)")
                completion(nil)
            } catch {
                self.journal.entries.removeLast()
                completion(error)
            }
        }
    }

    func enqueue(tag: String, payload: Data) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            self.enqueue(tag: tag, payload: payload, completion: { error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume()
                }
            })
        }
    }

    // MARK: Sending

    /// Sends what is due, up to two uploads at a time; `completion` runs once all of them were
    /// answered and nothing more is due.
    func sendPending(completion: @escaping @Sendable () -> Void) {
        stateQueue.async {
            self.fill(Pass(finished: completion))
        }
    }

    func sendPending() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            self.sendPending(completion: { continuation.resume() })
        }
    }

    private func fill(_ pass: Pass) {
        dispatchPrecondition(condition: .onQueue(stateQueue))
        let nowMillis = Self.millis(now())
        while pass.active < Self.maxConcurrentUploads,
              let index = journal.entries.firstIndex(where: { isSendable($0, at: nowMillis, in: pass) }) {
            start(index, in: pass)
        }
        if pass.active == 0 { pass.finished() }
    }

    private func isSendable(_ entry: Entry, at nowMillis: Int64, in pass: Pass) -> Bool {
        entry.state == .waiting
            && !uploading.contains(entry.id)
            && !pass.tried.contains(entry.id)
            && (entry.retryAtMillis ?? 0) <= nowMillis
    }

    private func start(_ index: Int, in pass: Pass) {
        journal.entries[index].tries += 1
        let entry = journal.entries[index]
        let entryID = entry.id
        uploading.insert(entryID)
        pass.tried.insert(entryID)
        pass.active += 1
        try? writeJournal()
        let request = Trial22UploadRequest(
            path: "/v1/uploads",
            headers: ["Content-Type": "application/json", "Idempotency-Key": entry.idempotencyKey],
            body: entry.payload)
        network.upload(request) { result in
            self.stateQueue.async {
                self.uploading.remove(entryID)
                self.apply(result, toEntry: entryID)
                pass.active -= 1
                self.fill(pass)
            }
        }
    }

    private func apply(_ result: Result<UploadReply, any Error>, toEntry id: String) {
        guard let index = journal.entries.firstIndex(where: { $0.id == id }) else { return }
        switch result {
        case .success(let reply) where (200...299).contains(reply.status):
            record("\(journal.entries[index].tag) uploaded (HTTP \(reply.status))")
            journal.entries.remove(at: index)
        case .success(let reply) where reply.status == 409:
            hold(index, because: "HTTP 409: key already used with another payload")
        case .success(let reply) where reply.status == 408 || reply.status == 429:
            scheduleRetry(index, after: "HTTP \(reply.status)")
        case .success(let reply) where (400...499).contains(reply.status):
            hold(index, because: "HTTP \(reply.status): rejected")
        case .success(let reply):  // 3xx, 5xx: outcome unknown
            scheduleRetry(index, after: "HTTP \(reply.status)")
        case .failure:
            scheduleRetry(index, after: "no response")
        }
        try? writeJournal()
    }

    private func hold(_ index: Int, because reason: String) {
        journal.entries[index].state = .held
        journal.entries[index].heldBecause = reason
        record("\(journal.entries[index].tag) held: \(reason)")
    }

    private func scheduleRetry(_ index: Int, after reason: String) {
        let tries = journal.entries[index].tries
        let step = Self.retrySchedule[min(max(tries, 1), Self.retrySchedule.count) - 1]
        journal.entries[index].retryAtMillis = Self.millis(now(), rounding: .up) + step * 1000
        record("\(journal.entries[index].tag) \(reason) on try \(tries); next in \(step) s")
    }

    // MARK: Journal and events

    private func writeJournal() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(journal).write(to: journalURL, options: .atomic)
    }

    static func readJournal(at url: URL) throws -> Journal {
        guard FileManager.default.fileExists(atPath: url.path) else { return Journal() }
        return try JSONDecoder().decode(Journal.self, from: Data(contentsOf: url))
    }

    static func millis(_ date: Date, rounding rule: FloatingPointRoundingRule = .down) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(rule))
    }

    private func record(_ line: String) {
        events.append(line)
        if events.count > 200 { events.removeFirst(events.count - 200) }
    }

    func recentEvents() async -> [String] {
        await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            stateQueue.async { continuation.resume(returning: self.events) }
        }
    }

    /// Returns once every block already queued on the state queue has run.
    func drainStateQueue() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            stateQueue.async { continuation.resume() }
        }
    }
}
