import Foundation

/// An offline write queue that keeps one JSON file per task.
///
/// `submit` writes the task's file before it returns; `sync()` sends every due task once, oldest
/// first, and keeps a due time in the file after an unknown outcome, so later syncs retry it
/// with the same idempotency key.
actor TaskFileOutbox {
    typealias Transport = @Sendable (_ idempotencyKey: String, _ body: Data) async throws -> Int

    static let baseRetryDelay: TimeInterval = 2
    static let maxRetryDelay: TimeInterval = 120
    static let retryableStatusCodes: Set<Int> = [408, 429]

    private let tasksDirectory: URL
    private let transport: Transport
    private let now: @Sendable () -> Date
    /// Tasks whose request is in flight from this process.
    private var sending: Set<UUID> = []
    private(set) var log: [String] = []

    init(directory: URL, transport: @escaping Transport, now: @escaping @Sendable () -> Date = Date.init) throws {
        tasksDirectory = directory.appendingPathComponent("tasks", isDirectory: true)
        try FileManager.default.createDirectory(at: tasksDirectory, withIntermediateDirectories: true)
        self.transport = transport
        self.now = now
    }

    // MARK: Submitting

    @discardableResult
    func submit(label: String, body: Data) throws -> UUID {
        let payload = try JSONDecoder().decode([String: JSONValue].self, from: body)
        let task = OutboxTask(
            id: UUID(), label: label, idempotencyKey: UUID().uuidString, payload: payload,
            createdAt: now(), status: .pending, attempts: 0, retryAfter: nil, failureReason: nil)
        try Self.write(task, in: tasksDirectory)
        log.append("\(label): queued")
        return task.id
    }

    // MARK: Sending

    /// One sending pass: every due task once, oldest first.
    func sync() async {
        let candidates: [OutboxTask]
        do {
            candidates = try Self.loadTasks(inFolder: tasksDirectory)
        } catch {
            log.append("sync: cannot read the queue (\(error))")
            return
        }
        for candidate in candidates.sorted(by: { $0.createdAt < $1.createdAt }) {
            if Task.isCancelled { return }
            // Read the file again: another pass may have finished or stopped the task meanwhile.
            guard !sending.contains(candidate.id),
                  var task = try? Self.read(candidate.id, in: tasksDirectory),
                  task.status == .pending,
                  (task.retryAfter ?? .distantPast) <= now()
            else { continue }

            let body: Data
            do {
                body = try Self.requestBody(for: task.payload)
            } catch {
                stop(&task, reason: "cannot encode the body")
                continue
            }
            sending.insert(task.id)
            let outcome: Result<Int, any Error>
            do {
                let status = try await transport(task.idempotencyKey, body)
                outcome = .success(status)
            } catch {
                outcome = .failure(error)
            }
            sending.remove(task.id)
            if case .failure(let error) = outcome, error is CancellationError { return }
            record(outcome, for: &task)
        }
    }

    /// The bytes sent for a task's payload.
    static func requestBody(for payload: [String: JSONValue]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return try encoder.encode(payload)
    }

    private func record(_ outcome: Result<Int, any Error>, for task: inout OutboxTask) {
        task.attempts += 1
        switch outcome {
        case .success(let status) where (200..<300).contains(status):
            do {
                try FileManager.default.removeItem(at: Self.fileURL(for: task.id, in: tasksDirectory))
                log.append("\(task.label): delivered (HTTP \(status))")
            } catch {
                log.append("\(task.label): delivered, but its file stays (\(error))")
            }
        case .success(409):
            stop(&task, reason: "HTTP 409: the server holds this idempotency key with a different body")
        case .success(let status) where Self.retryableStatusCodes.contains(status) || (500..<600).contains(status):
            scheduleRetry(&task, reason: "HTTP \(status)")
        case .success(let status):
            stop(&task, reason: "HTTP \(status): rejected by the server")
        case .failure(let error):
            scheduleRetry(&task, reason: "no answer (\(error))")
        }
    }

    private func scheduleRetry(_ task: inout OutboxTask, reason: String) {
        let delay = min(Self.maxRetryDelay, Self.baseRetryDelay * pow(2, Double(min(task.attempts - 1, 30))))
        task.retryAfter = now().addingTimeInterval(delay)
        task.failureReason = nil
        save(task)
        log.append("\(task.label): attempt \(task.attempts) failed: \(reason); retry in \(delay) s")
    }

    private func stop(_ task: inout OutboxTask, reason: String) {
        task.status = .needsAttention
        task.retryAfter = nil
        task.failureReason = reason
        save(task)
        log.append("\(task.label): stopped: \(reason)")
    }

    private func save(_ task: OutboxTask) {
        do {
            try Self.write(task, in: tasksDirectory)
        } catch {
            log.append("\(task.label): cannot save (\(error))")
        }
    }

    // MARK: Files

    /// Every task stored under a queue directory (the debug menu reads the queue this way).
    static func storedTasks(in directory: URL) throws -> [OutboxTask] {
        try loadTasks(inFolder: directory.appendingPathComponent("tasks", isDirectory: true))
    }

    private static func loadTasks(inFolder folder: URL) throws -> [OutboxTask] {
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
            .compactMap { try? JSONDecoder().decode(OutboxTask.self, from: Data(contentsOf: $0)) }
    }

    private static func read(_ id: UUID, in folder: URL) throws -> OutboxTask {
        try JSONDecoder().decode(OutboxTask.self, from: Data(contentsOf: fileURL(for: id, in: folder)))
    }

    private static func write(_ task: OutboxTask, in folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted]
        try encoder.encode(task).write(to: fileURL(for: task.id, in: folder), options: .atomic)
    }

    private static func fileURL(for id: UUID, in folder: URL) -> URL {
        folder.appendingPathComponent("\(id.uuidString).json")
    }
}
