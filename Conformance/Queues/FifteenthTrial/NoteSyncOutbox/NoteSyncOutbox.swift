import Foundation

// MARK: - Wire types

/// One POST to the notes API. The key goes in the `Idempotency-Key` header.
struct NoteRequest: Sendable, Equatable {
    var idempotencyKey: String
    var body: Data
}

/// What the notes API answered.
struct NoteResponse: Sendable, Equatable {
    var statusCode: Int
}

// MARK: - Retry policy

struct NoteRetryPolicy: Sendable {
    /// Delay after the first unknown outcome; doubles after each further one.
    var baseDelay: Duration = .seconds(1)
    /// Longest we ever wait between two attempts of one note.
    var maximumDelay: Duration = .seconds(300)

    /// Exponential delay after `attempts` failed attempts (1-based). The exponent is clamped so
    /// that the shift can never overflow, however long a note keeps failing.
    func backoff(afterAttempt attempts: Int) -> Duration {
        let exponent = min(max(attempts - 1, 0), 16)
        return baseDelay * (1 << exponent)
    }
}

// MARK: - Stored task (one JSON file per task)

struct StoredNoteTask: Codable, Sendable, Equatable {
    enum State: String, Codable, Sendable {
        case pending
        case needsAttention
    }

    let id: UUID
    /// The caller's label for the operation (shown in the "Unsynced notes" screen).
    let label: String
    /// Chosen once, at enqueue, and sent with every attempt of this task.
    let idempotencyKey: String
    /// The exact bytes of the request body, sent unchanged on every attempt.
    let body: Data
    let createdAt: Date
    var state: State = .pending
    /// Requests sent for this task so far.
    var attempts: Int = 0
    /// When the last attempt was sent or, if it was answered, when its answer came.
    var lastAttemptAt: Date?
    /// Why the task stopped (set with `.needsAttention`).
    var diagnostic: String?
}

enum NoteOutboxError: Error {
    case unreadableTask(URL)
}

// MARK: - Outbox

/// Offline outbox for note edits. Each task lives in its own file under `directory/tasks`, written
/// atomically before anything is sent. `flush()` sends what is due, oldest first, one request at a
/// time, and waits out the backoff of failed tasks on the injected clock until every task has
/// either been accepted by the server or stopped for a person to look at.
actor NoteSyncOutbox<C: Clock<Duration>> {
    typealias Send = @Sendable (NoteRequest) async throws -> NoteResponse

    private let tasksDirectory: URL
    private let send: Send
    private let clock: C
    private let now: @Sendable () -> Date
    private let policy: NoteRetryPolicy

    /// Tasks a flush of this process is sending right now (a send lease; dies with the process).
    private var inFlight: Set<UUID> = []
    /// When each failed task may be sent again, on the clock of this process.
    private var retryAt: [UUID: C.Instant] = [:]
    /// Diagnostic log (never contains note bodies).
    private(set) var log: [String] = []

    init(
        directory: URL,
        policy: NoteRetryPolicy = NoteRetryPolicy(),
        send: @escaping Send,
        clock: C,
        now: @escaping @Sendable () -> Date
    ) throws {
        self.tasksDirectory = directory.appendingPathComponent("tasks", isDirectory: true)
        self.policy = policy
        self.send = send
        self.clock = clock
        self.now = now
        try FileManager.default.createDirectory(at: tasksDirectory, withIntermediateDirectories: true)
    }

    // MARK: Enqueue

    /// Persists a new task and returns its ID. Nothing is sent here; call `flush()`.
    @discardableResult
    func enqueue(label: String, body: Data) throws -> UUID {
        let task = StoredNoteTask(
            id: UUID(), label: label, idempotencyKey: UUID().uuidString, body: body, createdAt: now())
        try write(task)
        log.append("enqueued \(label)")
        return task.id
    }

    // MARK: Flush

    /// Sends every due task; waits on the clock for tasks that are backing off. Returns when no
    /// pending task is left that this call could send (all done, stopped, or leased by another flush),
    /// or when the calling task is cancelled.
    func flush() async {
        while !Task.isCancelled {
            let candidates = loadTasks().filter { $0.state == .pending && !inFlight.contains($0.id) }
            guard !candidates.isEmpty else { return }

            let current = clock.now
            let due = candidates
                .filter { dueInstant(of: $0) <= current }
                .sorted { $0.createdAt < $1.createdAt }

            guard let next = due.first else {
                let earliest = candidates.map { dueInstant(of: $0) }.min() ?? current
                do {
                    try await clock.sleep(until: earliest, tolerance: nil)
                } catch {
                    return  // cancelled
                }
                continue
            }
            // Take the lease before the first suspension point, so a second flush skips this task.
            inFlight.insert(next.id)
            await attempt(next)
            inFlight.remove(next.id)
        }
    }

    private func attempt(_ snapshot: StoredNoteTask) async {

        var task = snapshot
        task.attempts += 1
        task.lastAttemptAt = now()
        do {
            try write(task)
        } catch {
            log.append("could not record attempt of \(task.label): \(error)")
            return
        }
        log.append("sending \(task.label) (attempt \(task.attempts))")

        let outcome: Result<NoteResponse, any Error>
        do {
            outcome = .success(try await send(NoteRequest(idempotencyKey: task.idempotencyKey, body: task.body)))
        } catch {
            outcome = .failure(error)
        }

        // Work on the stored copy: it is the source of truth.
        guard var stored = read(id: task.id) else { return }

        switch outcome {
        case .success(let response) where (200..<300).contains(response.statusCode):
            try? FileManager.default.removeItem(at: fileURL(for: stored.id))
            retryAt[stored.id] = nil
            log.append("\(stored.label) synced (HTTP \(response.statusCode))")

        case .success(let response) where response.statusCode == 408 || response.statusCode == 429
            || (500..<600).contains(response.statusCode):
            scheduleRetry(&stored, reason: "HTTP \(response.statusCode)")

        case .success(let response) where response.statusCode == 409:
            stop(&stored, diagnostic: "HTTP 409: the server holds a different note for this idempotency key")

        case .success(let response):
            stop(&stored, diagnostic: "HTTP \(response.statusCode): rejected by the server")

        case .failure(let error):
            scheduleRetry(&stored, reason: "no answer (\(error))")
        }
    }

    private func scheduleRetry(_ task: inout StoredNoteTask, reason: String) {
        let delay = min(policy.backoff(afterAttempt: task.attempts), policy.maximumDelay)
        task.lastAttemptAt = now()
        retryAt[task.id] = clock.now.advanced(by: delay)
        do { try write(task) } catch { log.append("could not record retry of \(task.label): \(error)") }
        log.append("\(task.label): \(reason); retry in \(delay)")
    }

    private func stop(_ task: inout StoredNoteTask, diagnostic: String) {
        task.state = .needsAttention
        task.diagnostic = diagnostic
        retryAt[task.id] = nil
        do { try write(task) } catch { log.append("could not record stop of \(task.label): \(error)") }
        log.append("\(task.label) needs attention: \(diagnostic)")
    }

    /// When a pending task may be sent. A task that failed in this process has its retry time in
    /// memory; one restored from disk after a relaunch resumes its backoff from the last attempt.
    private func dueInstant(of task: StoredNoteTask) -> C.Instant {
        if let instant = retryAt[task.id] { return instant }
        let current = clock.now
        guard task.attempts > 0, let last = task.lastAttemptAt else { return current }
        let resumeAt = last.addingTimeInterval(policy.backoff(afterAttempt: task.attempts).noteTimeInterval)
        let remaining = max(resumeAt.timeIntervalSince(now()), 0)
        let resumed = current.advanced(by: .seconds(remaining))
        retryAt[task.id] = resumed
        return resumed
    }

    // MARK: Storage

    private func fileURL(for id: UUID) -> URL {
        tasksDirectory.appendingPathComponent("\(id.uuidString).json")
    }

    private func write(_ task: StoredNoteTask) throws {
        let data = try JSONEncoder().encode(task)
        try data.write(to: fileURL(for: task.id), options: .atomic)
    }

    private func read(id: UUID) -> StoredNoteTask? {
        guard let data = try? Data(contentsOf: fileURL(for: id)) else { return nil }
        return try? JSONDecoder().decode(StoredNoteTask.self, from: data)
    }

    private func loadTasks() -> [StoredNoteTask] {
        (try? Self.stored(in: tasksDirectory.deletingLastPathComponent())) ?? []
    }

    /// Every stored task, oldest first. Also used by the "Unsynced notes" screen and by tests.
    static func stored(in directory: URL) throws -> [StoredNoteTask] {
        let folder = directory.appendingPathComponent("tasks", isDirectory: true)
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        let decoder = JSONDecoder()
        return try files.map { url in
            guard let data = try? Data(contentsOf: url) else { throw NoteOutboxError.unreadableTask(url) }
            return try decoder.decode(StoredNoteTask.self, from: data)
        }
        .sorted { $0.createdAt < $1.createdAt }
    }
}

extension Duration {
    var noteTimeInterval: TimeInterval {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
