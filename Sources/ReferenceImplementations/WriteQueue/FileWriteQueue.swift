import Foundation

/// A small, file-backed offline write queue that follows every write-queue rule of the
/// conformance kit (Q1–Q12).
///
/// - Persist before send: ``submit(operationID:body:)`` writes the task, with its key, before it
///   returns; nothing is sent from `submit`.
/// - A stable key, chosen once at submit, sent with every attempt, across relaunches.
/// - A send lease per task: two passes on one queue never send the same task at once.
/// - Only a 2xx completes (removes) a task. A dropped connection, a timeout or a 5xx keeps it
///   pending and retries after a capped exponential backoff, waited on the injected clock.
/// - A conflict or a terminal client error stops the task with a diagnostic.
/// - Log lines never contain a body: operation ID, key, status and byte count only.
///
/// ```swift
/// let queue = try FileWriteQueue(directory: outbox, transport: api, clock: clock)
/// try await queue.submit(operationID: "op-1", body: ticketJSON)
/// try await queue.runSendingPass()   // returns when nothing is pending
/// ```
package actor FileWriteQueue {
    private let storage: TaskDirectory
    private let transport: any QueueTransport
    private let clock: any QueueClock
    private let policy: RetryPolicy
    private let makeKey: @Sendable () -> String
    private var leased: Set<String> = []
    private var log: [String] = []

    /// Opens the queue stored in `directory` (a relaunch finds every task a crash left).
    ///
    /// - Parameters:
    ///   - directory: Where the tasks live, one file each.
    ///   - transport: What requests are sent through.
    ///   - clock: What tasks are stamped with and backoff waits on.
    ///   - policy: Classification and backoff.
    ///   - makeKey: Makes a fresh idempotency key; a random UUID by default.
    /// - Throws: When the directory cannot be created.
    package init(
        directory: URL, transport: any QueueTransport, clock: any QueueClock,
        policy: RetryPolicy = RetryPolicy(),
        makeKey: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() }
    ) throws {
        self.storage = try TaskDirectory(url: directory)
        self.transport = transport
        self.clock = clock
        self.policy = policy
        self.makeKey = makeKey
    }

    /// Stores a new operation with a fresh key. It is durable when this returns.
    /// - Parameters:
    ///   - operationID: The app's ID for the operation.
    ///   - body: The request body, sent byte for byte on every attempt.
    /// - Returns: The stored task.
    @discardableResult
    package func submit(operationID: String, body: Data) throws -> StoredTask {
        let now = clock.now
        let task = StoredTask(
            operationID: operationID, key: makeKey(), body: body, createdAt: now,
            sequence: try storage.nextSequence(), status: .pending, attempts: 0, nextAttemptAt: now)
        try storage.save(task)
        note("submit \(operationID) key \(task.key) (\(body.count) bytes)")
        return task
    }

    /// Sends every pending task, waiting on the clock for retries that are not yet due.
    ///
    /// Returns when no task is pending (or every pending one is leased by another pass), or
    /// when the pass is cancelled.
    /// - Throws: When the storage cannot be read or written.
    package func runSendingPass() async throws {
        while !Task.isCancelled {
            let candidates = try storage.load().filter { $0.status == .pending && !leased.contains($0.operationID) }
            guard let next = candidates.min(by: { ($0.nextAttemptAt, $0.sequence) < ($1.nextAttemptAt, $1.sequence) })
            else { return }
            if next.nextAttemptAt > clock.now {
                do {
                    try await clock.wait(until: next.nextAttemptAt)
                } catch {
                    return
                }
                continue
            }
            leased.insert(next.operationID)
            defer { leased.remove(next.operationID) }
            guard try await send(next) else { return }
        }
    }

    /// The queue's log lines, oldest first. They never contain a body.
    package func logLines() -> [String] {
        log
    }

    /// The tasks stored in `directory`, as a relaunch would find them.
    package static func storedTasks(in directory: URL) throws -> [StoredTask] {
        try TaskDirectory(url: directory).load()
    }

    /// Sends one task and records the verdict. Returns `false` when the pass must stop.
    private func send(_ task: StoredTask) async throws -> Bool {
        var task = task
        task.attempts += 1
        try storage.save(task)
        let status: Int
        do {
            status = try await transport.send(idempotencyKey: task.key, body: task.body)
        } catch is CancellationError {
            return false
        } catch {
            try retry(task, because: "no answer (\(error))")
            return true
        }
        switch policy.verdict(forStatus: status) {
        case .completed:
            try storage.remove(task)
            note("\(task.operationID) key \(task.key) → \(status): completed")
        case .retry:
            try retry(task, because: "\(status)")
        case .stop(let diagnostic):
            task.status = .needsAttention
            task.diagnostic = diagnostic
            try storage.save(task)
            note("\(task.operationID) key \(task.key) → stopped: \(diagnostic)")
        }
        return true
    }

    private func retry(_ task: StoredTask, because reason: String) throws {
        var task = task
        let delay = policy.delay(afterAttempt: task.attempts)
        task.nextAttemptAt = clock.now + delay
        try storage.save(task)
        note("\(task.operationID) key \(task.key) → \(reason): attempt \(task.attempts), retry in \(delay)")
    }

    private func note(_ line: String) {
        log.append(line)
    }
}
