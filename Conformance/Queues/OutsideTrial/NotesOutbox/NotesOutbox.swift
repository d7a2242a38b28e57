import Foundation

// MARK: - Public model

/// A write the app wants the server to apply to a note.
public enum NoteWrite: Sendable, Hashable, Codable {
    /// Create a note. `noteID` is the client-generated ID of the new note, so that later
    /// updates to it are ordered behind the create.
    case create(noteID: String)
    /// Replace the body of an existing note.
    case update(noteID: String)

    public var noteID: String {
        switch self {
        case .create(let noteID), .update(let noteID): noteID
        }
    }

    public var isUpdate: Bool {
        if case .update = self { true } else { false }
    }
}

/// One HTTP request the outbox asks its transport to send.
public struct NotesOutboxRequest: Sendable, Hashable {
    public let write: NoteWrite
    /// Sent as the `Idempotency-Key` header; the same for every attempt of one task.
    public let idempotencyKey: String
    /// The exact bytes stored at submit time.
    public let body: Data
}

/// What came back. The transport throws for anything that is not an HTTP answer
/// (no connection, timeout, connection lost, cancelled).
public struct NotesOutboxResponse: Sendable, Hashable {
    public let statusCode: Int
    public let body: Data

    public init(statusCode: Int, body: Data = Data()) {
        self.statusCode = statusCode
        self.body = body
    }
}

public typealias NoteTransport = @Sendable (NotesOutboxRequest) async throws -> NotesOutboxResponse

/// Retry timing for unknown outcomes and retryable statuses.
public struct NotesRetryPolicy: Sendable, Hashable {
    public var base: Duration
    public var cap: Duration

    public init(base: Duration = .seconds(1), cap: Duration = .seconds(30)) {
        precondition(base > .zero && cap >= base, "NotesRetryPolicy needs 0 < base <= cap")
        self.base = base
        self.cap = cap
    }

    /// Exponential backoff with "equal jitter": half of the exponential step is fixed, the other
    /// half is random, so a delay is never zero and never above the cap.
    /// - Parameters:
    ///   - failures: consecutive failed attempts so far (1 after the first failure).
    ///   - unit: a random number in `0..<1`.
    func delay(afterFailures failures: Int, unit: Double) -> Duration {
        let baseSeconds = base.seconds
        let capSeconds = cap.seconds
        // Clamp the exponent before computing anything: 2^62 would overflow an Int shift,
        // and a Double beyond the cap is pointless anyway.
        let exponent = Double(min(max(failures - 1, 0), 32))
        let exponential = min(capSeconds, baseSeconds * pow(2, exponent))
        let half = exponential / 2
        let clampedUnit = min(max(unit, 0), 1)
        let seconds = min(capSeconds, half + half * clampedUnit)
        return .milliseconds(max(1, Int64((seconds * 1000).rounded(.down))))
    }
}

/// A stored outbox task, as read back from disk.
public struct NotesOutboxTask: Sendable, Hashable, Codable, Identifiable {
    public enum State: Sendable, Hashable, Codable {
        case pending
        /// The server refused the write for good; a person has to look at it.
        case stopped(reason: String)
    }

    public let id: UUID
    /// Monotonic submit order; "oldest first" means lowest sequence.
    public let sequence: Int
    public let write: NoteWrite
    public let idempotencyKey: String
    /// A caller-supplied reference (for example the editor's change ID) for correlating
    /// the task with UI state. Never note content. Follows the newest coalesced update.
    public internal(set) var label: String?
    /// Exact request bytes. Private note content: never logged.
    public internal(set) var body: Data
    public let createdAt: Date
    public internal(set) var state: State
    /// Requests started for this task, counted (and saved) before each send.
    public internal(set) var attempts: Int
    /// Consecutive retryable failures; drives the backoff.
    public internal(set) var failureStreak: Int
    /// When the next attempt may start, after a retryable failure.
    public internal(set) var nextAttemptAt: Date?

    public var stopReason: String? {
        if case .stopped(let reason) = state { reason } else { nil }
    }

    public var isPending: Bool { state == .pending }

    /// True once a request for this task may have reached the server: from then on its body
    /// is frozen, because the key may already be bound to it.
    public var mayHaveBeenSent: Bool { attempts > 0 }
}

public enum NotesOutboxError: Error, Sendable {
    case storageUnreadable(underlying: String)
}

// MARK: - Storage

/// One JSON file, replaced atomically on every change.
struct OutboxFileStore: Sendable {
    struct Contents: Codable, Sendable {
        var version: Int = 1
        var nextSequence: Int = 0
        var tasks: [NotesOutboxTask] = []
    }

    static let fileName = "notes-outbox.json"

    let fileURL: URL

    init(directory: URL) {
        fileURL = directory.appendingPathComponent(Self.fileName, isDirectory: false)
    }

    func load() throws -> Contents {
        let data: Data
        do {
            data = try Data(contentsOf: fileURL)
        } catch {
            if !FileManager.default.fileExists(atPath: fileURL.path) { return Contents() }
            throw error
        }
        do {
            return try JSONDecoder().decode(Contents.self, from: data)
        } catch {
            throw NotesOutboxError.storageUnreadable(underlying: String(describing: type(of: error)))
        }
    }

    func save(_ contents: Contents) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(contents)
        #if os(iOS) || os(watchOS) || os(tvOS) || os(visionOS)
        try data.write(to: fileURL, options: [.atomic, .completeFileProtectionUntilFirstUserAuthentication])
        #else
        try data.write(to: fileURL, options: [.atomic])
        #endif
    }
}

// MARK: - Outbox

/// Durable outbox for note writes.
///
/// - Every change is written to one JSON file before the call that made it returns.
/// - Each task has one idempotency key for its whole life; a resend (after a lost answer, a 5xx
///   or a relaunch) carries that key and the stored bytes.
/// - A `sync()` sends up to three tasks at a time, the oldest task of each note first; notes
///   are independent. Retryable failures back off on the injected clock inside the sync.
/// - Cancelling a `sync()` caller stops the shared sync; the tasks stay queued.
public actor NotesOutbox {
    public static let maxConcurrentSends = 3
    public static let maxLogLines = 500

    private let store: OutboxFileStore
    private let transport: NoteTransport
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let random: @Sendable () -> Double
    private let policy: NotesRetryPolicy

    private var tasks: [NotesOutboxTask]  // ordered by sequence
    private var nextSequence: Int
    /// Tasks owned by a running send (claimed synchronously before the first await).
    private var inFlight: Set<UUID> = []
    private var runningSync: (token: UUID, task: Task<Void, Never>)?
    private var logLines: [String] = []

    public init(
        directory: URL,
        transport: @escaping NoteTransport,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = Date.init,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        policy: NotesRetryPolicy = NotesRetryPolicy()
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let store = OutboxFileStore(directory: directory)
        let contents = try store.load()
        self.store = store
        self.transport = transport
        self.clock = clock
        self.now = now
        self.random = random
        self.policy = policy
        self.tasks = contents.tasks.sorted { $0.sequence < $1.sequence }
        self.nextSequence = max(contents.nextSequence, (contents.tasks.map(\.sequence).max() ?? -1) + 1)
    }

    /// Reads the stored tasks without starting an outbox (debug screens, tests).
    public static func storedTasks(in directory: URL) throws -> [NotesOutboxTask] {
        try OutboxFileStore(directory: directory).load().tasks.sorted { $0.sequence < $1.sequence }
    }

    /// What the outbox did, newest last. Never contains note content.
    public var log: [String] { logLines }

    /// The tasks still stored (pending or stopped).
    public var queuedTasks: [NotesOutboxTask] { tasks }

    // MARK: Submit

    /// Stores a write. When this returns, the write is on disk with its idempotency key.
    ///
    /// An update to a note whose previous update has not been sent yet replaces that update's
    /// body instead of queueing a second request (the newest body wins). An update that may
    /// already have reached the server is never changed.
    @discardableResult
    public func submit(_ write: NoteWrite, body: Data, label: String? = nil) throws -> UUID {
        if write.isUpdate, let index = coalescingTarget(for: write.noteID) {
            let id = tasks[index].id
            try commit { tasks, _ in
                tasks[index].body = body
                tasks[index].label = label
            }
            record("coalesced update into task \(short(id)) for note \(write.noteID)\(labelSuffix(label))")
            return id
        }
        let task = NotesOutboxTask(
            id: UUID(),
            sequence: nextSequence,
            write: write,
            idempotencyKey: UUID().uuidString,
            label: label,
            body: body,
            createdAt: now(),
            state: .pending,
            attempts: 0,
            failureStreak: 0,
            nextAttemptAt: nil
        )
        try commit { tasks, nextSequence in
            tasks.append(task)
            nextSequence += 1
        }
        record("queued \(describe(task.write)) as task \(short(task.id))\(labelSuffix(label))")
        return task.id
    }

    /// The newest pending task of the note, if it is an update that no request has carried yet
    /// and no send has claimed.
    private func coalescingTarget(for noteID: String) -> Int? {
        guard let index = tasks.lastIndex(where: { $0.write.noteID == noteID && $0.isPending }) else {
            return nil
        }
        let candidate = tasks[index]
        guard candidate.write.isUpdate, !candidate.mayHaveBeenSent, !inFlight.contains(candidate.id) else {
            return nil
        }
        return index
    }

    // MARK: Sync

    /// Sends what is queued. If a sync is already running, waits for that one instead.
    public func sync() async {
        if let running = runningSync {
            await withTaskCancellationHandler {
                await running.task.value
            } onCancel: {
                running.task.cancel()
            }
            return
        }
        let token = UUID()
        let task = Task { await self.drain(token) }
        runningSync = (token, task)
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
    }

    private func drain(_ token: UUID) async {
        defer {
            if runningSync?.token == token { runningSync = nil }
        }
        record("sync started: \(tasks.filter(\.isPending).count) pending")
        await withTaskGroup(of: Void.self) { group in
            var running = 0
            while true {
                if !Task.isCancelled {
                    for id in claimNextTasks(limit: Self.maxConcurrentSends - running) {
                        running += 1
                        group.addTask { await self.deliver(id) }
                    }
                }
                if running == 0 { break }
                _ = await group.next()
                running -= 1
            }
        }
        record("sync finished: \(tasks.filter(\.isPending).count) pending, \(tasks.count - tasks.filter(\.isPending).count) need attention")
    }

    /// Picks the oldest pending task of each note that has nothing in flight, oldest first,
    /// and claims them before returning (no suspension between the check and the claim).
    private func claimNextTasks(limit: Int) -> [UUID] {
        guard limit > 0 else { return [] }
        var busyNotes = Set(tasks.lazy.filter { self.inFlight.contains($0.id) }.map(\.write.noteID))
        var claimed: [UUID] = []
        for task in tasks where task.isPending {
            let noteID = task.write.noteID
            guard !busyNotes.contains(noteID) else { continue }
            busyNotes.insert(noteID)  // this task is the note's head: later ones wait behind it
            inFlight.insert(task.id)
            claimed.append(task.id)
            if claimed.count == limit { break }
        }
        return claimed
    }

    private enum Outcome {
        case delivered(Int)
        case stop(String)
        case retry(String)
        case cancelled
    }

    /// Owns one claimed task until it is delivered, stopped, or the sync is cancelled.
    private func deliver(_ id: UUID) async {
        defer { inFlight.remove(id) }
        var wait = remainingBackoff(of: id)
        while true {
            if wait > .zero {
                do {
                    try await clock.sleep(for: wait)
                } catch {
                    return  // cancelled: the task stays queued with its due time
                }
            }
            guard !Task.isCancelled else { return }
            guard let request = startAttempt(id) else { return }

            let outcome: Outcome
            do {
                let response = try await transport(request)
                outcome = classify(response)
            } catch {
                outcome = Task.isCancelled ? .cancelled : .retry(describe(error))
            }

            switch outcome {
            case .delivered(let status):
                finish(id, status: status)
                return
            case .stop(let reason):
                stop(id, reason: reason)
                return
            case .cancelled:
                record("task \(short(id)): sync cancelled while a request was out; outcome unknown, kept")
                return
            case .retry(let why):
                guard let delay = scheduleRetry(id, why: why) else { return }
                wait = delay
            }
        }
    }

    /// Time left before a task restored with a due time may be sent; never more than the cap
    /// (the wall clock may have moved backwards since it was stored).
    private func remainingBackoff(of id: UUID) -> Duration {
        guard let due = task(id)?.nextAttemptAt else { return .zero }
        let seconds = due.timeIntervalSince(now())
        guard seconds > 0 else { return .zero }
        return min(.milliseconds(Int64((seconds * 1000).rounded(.up))), policy.cap)
    }

    /// Counts the attempt on disk, then returns the request. Nothing is sent if that save fails.
    private func startAttempt(_ id: UUID) -> NotesOutboxRequest? {
        guard let index = index(of: id), tasks[index].isPending else { return nil }
        do {
            try commit { tasks, _ in
                tasks[index].attempts += 1
                tasks[index].nextAttemptAt = nil
            }
        } catch {
            record("task \(short(id)): could not save before sending (\(describe(error))); not sent")
            return nil
        }
        let task = tasks[index]
        record("sending task \(short(id)) (\(describe(task.write)), attempt \(task.attempts))")
        return NotesOutboxRequest(write: task.write, idempotencyKey: task.idempotencyKey, body: task.body)
    }

    private func classify(_ response: NotesOutboxResponse) -> Outcome {
        switch response.statusCode {
        case 200..<300:
            return .delivered(response.statusCode)
        case 408, 429, 500..<600:
            return .retry("HTTP \(response.statusCode)")
        case 409:
            return .stop("conflict (HTTP 409)\(notesErrorCodeSuffix(response.body))")
        case 400..<500:
            return .stop("rejected (HTTP \(response.statusCode))\(notesErrorCodeSuffix(response.body))")
        default:
            // 1xx/3xx should never reach us (URLSession follows redirects). Not a success, and
            // retrying blindly would loop: keep it for a person to look at.
            return .stop("unexpected HTTP \(response.statusCode)")
        }
    }

    private func finish(_ id: UUID, status: Int) {
        guard let index = index(of: id) else { return }
        let attempts = tasks[index].attempts
        saveBestEffort(id) { tasks, _ in tasks.remove(at: index) }
        record("task \(short(id)) delivered (HTTP \(status)) after \(attempts) attempt(s)")
    }

    private func stop(_ id: UUID, reason: String) {
        guard let index = index(of: id) else { return }
        saveBestEffort(id) { tasks, _ in
            tasks[index].state = .stopped(reason: reason)
            tasks[index].nextAttemptAt = nil
        }
        record("task \(short(id)) stopped: \(reason)")
    }

    /// Records a retryable failure and returns how long to wait before the next attempt.
    private func scheduleRetry(_ id: UUID, why: String) -> Duration? {
        guard let index = index(of: id) else { return nil }
        let streak = tasks[index].failureStreak + 1
        let delay = policy.delay(afterFailures: streak, unit: random())
        let due = now().addingTimeInterval(delay.seconds)
        saveBestEffort(id) { tasks, _ in
            tasks[index].failureStreak = streak
            tasks[index].nextAttemptAt = due
        }
        record("task \(short(id)) failed (\(why)); retry \(streak) in \(format(delay))")
        return delay
    }

    // MARK: Persistence helpers

    /// Applies a change to a copy, saves it, and only then makes it the outbox's state.
    private func commit(_ change: (inout [NotesOutboxTask], inout Int) -> Void) throws {
        var newTasks = tasks
        var newSequence = nextSequence
        change(&newTasks, &newSequence)
        try store.save(.init(nextSequence: newSequence, tasks: newTasks))
        tasks = newTasks
        nextSequence = newSequence
    }

    /// For changes after an answer: keep going in memory even if the disk refuses. The stored
    /// state is then older, which only means a resend with the same key after a relaunch.
    private func saveBestEffort(_ id: UUID, _ change: (inout [NotesOutboxTask], inout Int) -> Void) {
        do {
            try commit(change)
        } catch {
            change(&tasks, &nextSequence)
            record("task \(short(id)): could not save (\(describe(error)))")
        }
    }

    private func index(of id: UUID) -> Int? { tasks.firstIndex { $0.id == id } }
    private func task(_ id: UUID) -> NotesOutboxTask? { index(of: id).map { tasks[$0] } }

    // MARK: Log (no note content, ever)

    private func record(_ line: String) {
        logLines.append(line)
        if logLines.count > Self.maxLogLines {
            logLines.removeFirst(logLines.count - Self.maxLogLines)
        }
    }

    private func short(_ id: UUID) -> String { String(id.uuidString.prefix(8)) }

    private func labelSuffix(_ label: String?) -> String { label.map { " [\($0)]" } ?? "" }

    private func describe(_ write: NoteWrite) -> String {
        switch write {
        case .create(let noteID): "create note \(noteID)"
        case .update(let noteID): "update note \(noteID)"
        }
    }

    /// Only the error's type and code: messages can quote what the user typed.
    private func describe(_ error: any Error) -> String {
        if let urlError = error as? URLError { return "URLError \(urlError.code.rawValue)" }
        return String(describing: type(of: error))
    }

    private func format(_ duration: Duration) -> String {
        String(format: "%.3f s", duration.seconds)
    }
}

/// The server's machine-readable error code (`{"error": "validation_failed", ...}`), when it
/// looks like a code. The human message is never kept: it can quote the rejected values.
func notesErrorCodeSuffix(_ body: Data) -> String {
    guard
        let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
        let code = object["error"] as? String,
        (1...64).contains(code.count),
        code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") })
    else { return "" }
    return ", \(code)"
}

extension Duration {
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
