import Foundation

/// One stored write.
struct QueuedWrite: Codable, Sendable {
    let id: UUID
    /// The caller's tag for the action (the kit's operation ID in tests).
    let tag: String
    let idempotencyKey: String
    let body: Data
    let enqueuedAt: Date
    var attempts: Int
    var retryAfter: Date
    var isParked: Bool          // needs attention: never retried automatically
    var parkReason: String?
}

/// What the networking layer takes and gives back (a thin wrapper over URLSession in the app).
struct OutboundRequest: Sendable {
    let headers: [String: String]
    let body: Data
}

struct InboundResponse: Sendable {
    let statusCode: Int
    let body: Data
}

/// A GCD-era outbox: all state lives on a private serial queue, requests go through a
/// completion-handler transport, and callers get completion blocks.
///
/// KNOWN BUG (kept on purpose): `sync` reads the due writes and checks `inFlight` on one hop of
/// the state queue, builds the requests on the encode queue, and inserts into `inFlight` on a
/// later hop. Two syncs started together can both pass the check for the same write and both
/// send it.
final class SerialQueueOutbox: @unchecked Sendable {
    typealias Transport = @Sendable (
        OutboundRequest, @escaping @Sendable (Result<InboundResponse, any Error>) -> Void
    ) -> Void

    static let fileName = "queued-writes.json"
    static let keyHeader = "Idempotency-Key"
    static let retryBase: TimeInterval = 1
    static let retryCap: TimeInterval = 16

    private let stateQueue = DispatchQueue(label: "com.example.outbox.state")
    private let encodeQueue = DispatchQueue(label: "com.example.outbox.encode", qos: .utility)
    private let fileURL: URL
    private let transport: Transport
    private let now: @Sendable () -> Date

    // State: touched on `stateQueue` only.
    private var writes: [QueuedWrite]
    private var inFlight: Set<UUID> = []
    private var events: [String] = []

    init(directory: URL, now: @escaping @Sendable () -> Date = Date.init, transport: @escaping Transport) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.fileURL = directory.appendingPathComponent(Self.fileName)
        self.now = now
        self.transport = transport
        self.writes = try Self.readWrites(at: directory.appendingPathComponent(Self.fileName))
    }

    // MARK: - App API

    /// Stores the write with a fresh key; `completion(nil)` once it is on disk.
    func enqueue(tag: String, body: Data, completion: @escaping @Sendable ((any Error)?) -> Void) {
        stateQueue.async {
            let stamp = self.now()
            let write = QueuedWrite(
                id: UUID(), tag: tag, idempotencyKey: UUID().uuidString, body: body, enqueuedAt: stamp,
                attempts: 0, retryAfter: stamp, isParked: false, parkReason: nil)
            self.writes.append(write)
            do {
                try self.persist()
                self.note("enqueued \(tag)")
                completion(nil)
            } catch {
                self.writes.removeAll { $0.id == write.id }
                completion(error)
            }
        }
    }

    /// Sends every due write once; `completion` runs when every request of this sync was answered.
    func sync(completion: @escaping @Sendable () -> Void) {
        stateQueue.async {
            let moment = self.now()
            let due = self.writes.filter {
                !$0.isParked && $0.retryAfter <= moment && !self.inFlight.contains($0.id)
            }
            guard !due.isEmpty else {
                completion()
                return
            }
            // Request building (headers, signing in the real app) is kept off the state queue.
            self.encodeQueue.async {
                let batch = due.map { write in
                    PreparedSend(
                        id: write.id,
                        request: OutboundRequest(
                            headers: [Self.keyHeader: write.idempotencyKey, "Content-Type": "application/json"],
                            body: write.body))
                }
                self.stateQueue.async {
                    // BUG: no re-check. Another sync may have claimed these writes since the
                    // filter above ran.
                    for item in batch {
                        self.inFlight.insert(item.id)
                        if let index = self.index(of: item.id) { self.writes[index].attempts += 1 }
                    }
                    try? self.persist()
                    self.dispatch(batch, completion: completion)
                }
            }
        }
    }

    /// The recent event log shown in the app's debug screen.
    func recentEvents(completion: @escaping @Sendable ([String]) -> Void) {
        stateQueue.async { completion(self.events) }
    }

    /// Blocks until every block already queued on the outbox's queues has run (tests, and
    /// `applicationWillTerminate`). Never waits for a request: answers arrive on their own.
    func waitUntilIdle() {
        stateQueue.sync {}
        encodeQueue.sync {}
        stateQueue.sync {}
    }

    // MARK: - Sending

    private struct PreparedSend: Sendable {
        let id: UUID
        let request: OutboundRequest
    }

    /// Counts answers still expected by one sync; touched on `stateQueue` only.
    private final class Countdown: @unchecked Sendable {
        var remaining: Int
        init(_ remaining: Int) { self.remaining = remaining }
    }

    /// Runs on `stateQueue`.
    private func dispatch(_ batch: [PreparedSend], completion: @escaping @Sendable () -> Void) {
        let countdown = Countdown(batch.count)
        for item in batch {
            transport(item.request) { result in
                self.stateQueue.async {
                    self.handle(result, for: item.id)
                    countdown.remaining -= 1
                    if countdown.remaining == 0 { completion() }
                }
            }
        }
    }

    /// Runs on `stateQueue`.
    private func handle(_ result: Result<InboundResponse, any Error>, for id: UUID) {
        inFlight.remove(id)
        guard let index = index(of: id) else { return }
        let tag = writes[index].tag
        switch result {
        case .success(let response) where (200..<300).contains(response.statusCode):
            writes.remove(at: index)
            note("\(tag) delivered")
        case .success(let response) where Self.isTerminal(response.statusCode):
            writes[index].isParked = true
            writes[index].parkReason = "HTTP \(response.statusCode) from server; needs attention"
            note("\(tag) parked after HTTP \(response.statusCode)")
        case .success(let response):
            scheduleRetry(at: index, reason: "HTTP \(response.statusCode)")
        case .failure:
            scheduleRetry(at: index, reason: "no response")
        }
        do {
            try persist()
        } catch {
            note("save failed")
        }
    }

    private func scheduleRetry(at index: Int, reason: String) {
        let delay = Self.retryDelay(afterAttempt: writes[index].attempts)
        writes[index].retryAfter = now().addingTimeInterval(delay)
        note("\(writes[index].tag) will retry in \(delay) s (\(reason))")
    }

    static func isTerminal(_ status: Int) -> Bool {
        (400..<500).contains(status) && status != 408 && status != 429
    }

    static func retryDelay(afterAttempt attempt: Int) -> TimeInterval {
        let exponent = Double(min(max(attempt - 1, 0), 30))
        return min(retryCap, retryBase * pow(2, exponent))
    }

    // MARK: - Storage (stateQueue)

    private func index(of id: UUID) -> Int? {
        writes.firstIndex { $0.id == id }
    }

    private func persist() throws {
        try JSONEncoder().encode(writes).write(to: fileURL, options: .atomic)
    }

    private func note(_ line: String) {
        events.append(line)
        if events.count > 300 { events.removeFirst(events.count - 300) }
    }

    static func readWrites(at fileURL: URL) throws -> [QueuedWrite] {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return [] }
        return try JSONDecoder().decode([QueuedWrite].self, from: Data(contentsOf: fileURL))
    }

    static func storedWrites(in directory: URL) throws -> [QueuedWrite] {
        try readWrites(at: directory.appendingPathComponent(fileName))
    }
}
