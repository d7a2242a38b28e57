import Foundation

/// The notes app's offline outbox: every create and edit of a note becomes a task in one JSON
/// file (rewritten atomically on every change), sent later with an idempotency key made when the
/// task was made.
///
/// - `sync()` drains in a `Task` of its own; a sync that comes while a drain runs waits for it,
///   then drains again.
/// - A drain sends up to three tasks at once, the oldest pending task of each note first; a task
///   is claimed (in memory) in the step that picks it and stays claimed through its backoff.
/// - Unknown outcomes (no answer, 408, 429, 5xx) are retried with the same key and bytes after a
///   jittered exponential delay on the injected clock, capped at 30 s. A 2xx removes the task;
///   any other answer stops it with a reason for the user.
/// - An edit to a note whose newest pending task is an update replaces that update's body
///   instead of queueing a second request.
/// - Log lines never carry a note's `text`.
///
/// The mutant: the edit's merge guard only asks whether the update is being sent right now. It
/// never asks whether a request already carried the update in an earlier process (its stored
/// attempt count), so after a crash mid-request an edit rewrites the body under a spent key.
public actor BuggyNotesOutbox {
    public typealias Transport = @Sendable (Request) async throws -> Response

    /// What goes over the wire.
    public struct Request: Sendable, Hashable {
        public var idempotencyKey: String
        public var body: Data

        public init(idempotencyKey: String, body: Data) {
            self.idempotencyKey = idempotencyKey
            self.body = body
        }
    }

    /// What the server said.
    public struct Response: Sendable, Hashable {
        public var statusCode: Int
        public var body: Data

        public init(statusCode: Int, body: Data = Data()) {
            self.statusCode = statusCode
            self.body = body
        }
    }

    /// One queued write, as stored.
    public struct StoredTask: Sendable, Hashable, Codable, Identifiable {
        public enum Kind: String, Sendable, Hashable, Codable { case create, update }

        public let id: UUID
        public let noteID: String
        public let kind: Kind
        /// The caller's name for the write (the latest one merged in).
        public var label: String?
        public let idempotencyKey: String
        /// The exact bytes every attempt sends.
        public var body: Data
        public let createdAt: Date
        /// Requests started for this task, counted before each one goes out.
        public var attempts: Int
        /// Why the task stopped; nil while it is pending.
        public var stopReason: String?

        public var isPending: Bool { stopReason == nil }
    }

    private struct OutboxFile: Codable {
        var version = 1
        var tasks: [StoredTask]
    }

    private enum Verdict {
        case delivered
        case retryLater(String)
        case stop(String)
    }

    private static let fileName = "outbox.json"
    private static let maxConcurrentSends = 3
    private static let backoffCap: Double = 30
    private static let sensitiveKeys: Set<String> = ["text"]

    /// Redacted lines, newest last.
    public private(set) var log: [String] = []

    private let fileURL: URL
    private let transport: Transport
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double

    private var tasks: [StoredTask]
    private var claimed: Set<UUID> = []
    private var drain: Task<Void, Never>?

    public init<C: Clock>(
        directory: URL,
        transport: @escaping Transport,
        clock: C,
        now: @escaping @Sendable () -> Date = Date.init,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) throws where C.Duration == Duration {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        fileURL = directory.appendingPathComponent(Self.fileName)
        self.transport = transport
        sleep = { try await clock.sleep(for: $0) }
        self.now = now
        self.random = random
        tasks = try Self.readTasks(from: fileURL)
    }

    /// The tasks stored in `directory`, for tools and tests that look at the file.
    public static func storedTasks(in directory: URL) throws -> [StoredTask] {
        try readTasks(from: directory.appendingPathComponent(fileName))
    }

    // MARK: - Queueing

    /// Queues a create or an edit of a note. Returns once the task is on disk.
    public func submit(_ write: NoteWrite, body: Data, label: String? = nil) throws {
        let noteID: String
        let kind: StoredTask.Kind
        switch write {
        case .create(let id):
            noteID = id
            kind = .create
        case .update(let id):
            noteID = id
            kind = .update
        }

        if kind == .update,
           let index = tasks.lastIndex(where: { $0.noteID == noteID && $0.isPending }),
           tasks[index].kind == .update,
           !claimed.contains(tasks[index].id) {
            var updated = tasks
            updated[index].body = body
            updated[index].label = label
            try save(updated)
            tasks = updated
            record("merged \(label ?? "edit") into \(short(updated[index].idempotencyKey)) for note \(noteID): \(redacted(body))")
            return
        }

        let task = StoredTask(
            id: UUID(), noteID: noteID, kind: kind, label: label,
            idempotencyKey: UUID().uuidString, body: body, createdAt: now(),
            attempts: 0, stopReason: nil)
        try save(tasks + [task])
        tasks.append(task)
        record("queued \(label ?? task.id.uuidString) (\(kind.rawValue) note \(noteID)) key \(short(task.idempotencyKey)): \(redacted(body))")
    }

    // MARK: - Sending

    /// Sends what is pending. Waits for a drain already running, then drains again.
    public func sync() async {
        while let running = drain {
            await running.value
        }
        let current = Task { await self.drainOutbox() }
        drain = current
        await withTaskCancellationHandler {
            await current.value
        } onCancel: {
            current.cancel()
        }
    }

    private func drainOutbox() async {
        defer { drain = nil }
        await withTaskGroup(of: (UUID, Bool).self) { group in
            var sending = 0
            var keepGoing = true
            while true {
                while keepGoing, sending < Self.maxConcurrentSends, !Task.isCancelled,
                      let id = claimNextTask() {
                    group.addTask { await self.deliver(id) }
                    sending += 1
                }
                guard sending > 0, let finished = await group.next() else { break }
                let (id, goOn) = finished
                sending -= 1
                // Released in the same step that picks the next ones: no edit can slip in between.
                claimed.remove(id)
                if !goOn { keepGoing = false }
            }
        }
    }

    /// Picks the oldest pending task of a note that has nothing in flight, and claims it.
    private func claimNextTask() -> UUID? {
        var notesSeen: Set<String> = []
        for task in tasks where task.isPending {
            guard notesSeen.insert(task.noteID).inserted else { continue }
            if claimed.contains(task.id) { continue }
            claimed.insert(task.id)
            return task.id
        }
        return nil
    }

    /// One attempt for a claimed task, and its backoff if it has to be tried again.
    /// Returns whether the drain should go on.
    private func deliver(_ id: UUID) async -> (UUID, Bool) {
        let request: Request
        do {
            guard let started = try startAttempt(id) else { return (id, true) }
            request = started
        } catch {
            record("could not save before sending \(short(id.uuidString)): \(type(of: error))")
            return (id, false)
        }

        let verdict: Verdict
        do {
            let response = try await transport(request)
            verdict = Self.verdict(for: response.statusCode)
        } catch {
            if Task.isCancelled { return (id, false) }
            verdict = .retryLater("no answer (\(type(of: error)))")
        }

        switch verdict {
        case .delivered:
            finish(id)
            return (id, true)
        case .stop(let reason):
            stop(id, reason: reason)
            return (id, true)
        case .retryLater(let reason):
            let attempts = tasks.first(where: { $0.id == id })?.attempts ?? 1
            let delay = backoff(afterAttempt: attempts)
            record("\(short(request.idempotencyKey)) \(reason); retrying in \(delay)")
            do {
                try await sleep(delay)
            } catch {
                return (id, false)
            }
            return (id, true)
        }
    }

    /// Counts the attempt on disk, then hands back the request to send.
    private func startAttempt(_ id: UUID) throws -> Request? {
        guard let index = tasks.firstIndex(where: { $0.id == id }), tasks[index].isPending else {
            return nil
        }
        var updated = tasks
        updated[index].attempts += 1
        try save(updated)
        tasks = updated
        let task = updated[index]
        record("sending \(short(task.idempotencyKey)) (note \(task.noteID), attempt \(task.attempts))")
        return Request(idempotencyKey: task.idempotencyKey, body: task.body)
    }

    private func finish(_ id: UUID) {
        guard let index = tasks.firstIndex(where: { $0.id == id }) else { return }
        var updated = tasks
        let task = updated.remove(at: index)
        do {
            try save(updated)
            tasks = updated
            record("delivered \(short(task.idempotencyKey))")
        } catch {
            record("delivered \(short(task.idempotencyKey)) but could not save: \(type(of: error))")
        }
    }

    private func stop(_ id: UUID, reason: String) {
        guard let index = tasks.firstIndex(where: { $0.id == id }) else { return }
        var updated = tasks
        updated[index].stopReason = reason
        do {
            try save(updated)
            tasks = updated
            record("stopped \(short(updated[index].idempotencyKey)): \(reason)")
        } catch {
            record("could not save the stop of \(short(updated[index].idempotencyKey)): \(type(of: error))")
        }
    }

    private static func verdict(for status: Int) -> Verdict {
        switch status {
        case 200..<300:
            return .delivered
        case 408, 429:
            return .retryLater("HTTP \(status)")
        case 500..<600:
            return .retryLater("HTTP \(status)")
        case 409:
            return .stop("HTTP 409: the server holds another version of this write")
        case 300..<400:
            return .stop("HTTP \(status): unexpected redirect")
        default:
            return .stop("HTTP \(status): rejected by the server")
        }
    }

    /// 1 s, 2 s, 4 s, … capped at 30 s, with half of it jittered.
    private func backoff(afterAttempt attempt: Int) -> Duration {
        let exponent = min(max(attempt - 1, 0), 5)
        let ceiling = min(Self.backoffCap, Double(1 << exponent))
        let seconds = ceiling * (0.5 + 0.5 * min(max(random(), 0), 1))
        return .seconds(max(seconds, 0.001))
    }

    // MARK: - Storage

    private func save(_ newTasks: [StoredTask]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(OutboxFile(tasks: newTasks))
        try data.write(to: fileURL, options: .atomic)
    }

    private static func readTasks(from url: URL) throws -> [StoredTask] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let data = try Data(contentsOf: url)
        return try JSONDecoder().decode(OutboxFile.self, from: data).tasks
    }

    // MARK: - Log

    private func record(_ line: String) {
        log.append(line)
    }

    private func short(_ key: String) -> String {
        String(key.prefix(8))
    }

    /// The body with every sensitive field masked, whatever its value.
    private func redacted(_ body: Data) -> String {
        guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
              let masked = try? JSONSerialization.data(
                  withJSONObject: Self.mask(json), options: [.sortedKeys, .fragmentsAllowed]),
              let text = String(data: masked, encoding: .utf8)
        else {
            return "<\(body.count) bytes>"
        }
        return text
    }

    private static func mask(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, inner) in object {
                result[key] = sensitiveKeys.contains(key.lowercased()) ? "<redacted>" : mask(inner)
            }
            return result
        }
        if let array = value as? [Any] {
            return array.map(mask)
        }
        return value
    }
}
