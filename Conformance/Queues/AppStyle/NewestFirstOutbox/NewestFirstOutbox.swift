import Foundation

/// File-backed outbox (one JSON file per task in `directory`). Each pass sends the
/// due tasks newest first. Time comes from `now`, waiting from `sleep`.
public actor NewestFirstOutbox {
    public enum Status: String, Codable, Sendable {
        case pending
        case needsAttention
    }

    public struct StoredTask: Codable, Sendable, Equatable {
        public var id: UUID
        public var idempotencyKey: String
        public var body: Data
        public var createdAt: Date
        public var status: Status
        public var attempts: Int
        public var diagnostic: String?
    }

    public struct Request: Sendable {
        public var url: URL
        public var method: String
        public var headers: [String: String]
        public var body: Data
    }

    /// Returns the HTTP status code. Throws on disconnect / timeout.
    public typealias Send = @Sendable (Request) async throws -> Int

    public static let sensitiveFields: Set<String> = ["password", "token", "pin"]

    private let directory: URL
    private let baseURL: URL
    private let send: Send
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Date
    private let maxBackoff: Duration
    private var inFlight: Set<UUID> = []

    public init(
        directory: URL,
        baseURL: URL = URL(string: "https://api.example.com")!,
        send: @escaping Send,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        now: @escaping @Sendable () -> Date,
        maxBackoff: Duration = .seconds(30)
    ) throws {
        self.directory = directory
        self.baseURL = baseURL
        self.send = send
        self.sleep = sleep
        self.now = now
        self.maxBackoff = maxBackoff
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    // MARK: Public API

    @discardableResult
    public func submit(_ body: Data) throws -> UUID {
        let task = StoredTask(
            id: UUID(),
            idempotencyKey: UUID().uuidString,
            body: body,
            createdAt: now(),
            status: .pending,
            attempts: 0,
            diagnostic: nil
        )
        try write(task)
        return task.id
    }

    /// Reads the tasks straight from disk.
    public func storedTasks() throws -> [StoredTask] {
        try readAll().sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }

    /// One attempt per due task, newest first. A task that has failed before waits
    /// min(maxBackoff, 1 s * 2^(attempts-1)) before it is retried.
    public func flush() async throws {
        let due = try readAll()
            .filter { $0.status == .pending && !inFlight.contains($0.id) }
            .sorted { ($0.createdAt, $0.id.uuidString) > ($1.createdAt, $1.id.uuidString) }

        for task in due {
            guard !inFlight.contains(task.id) else { continue }
            inFlight.insert(task.id)
            defer { inFlight.remove(task.id) }
            do {
                try await attempt(task.id)
            } catch is CancellationError {
                return
            }
        }
    }

    // MARK: Sending

    private func attempt(_ id: UUID) async throws {
        guard var task = try read(id), task.status == .pending else { return }
        if task.attempts > 0 {
            try await sleep(delay(forFailures: task.attempts))
            guard let fresh = try read(id), fresh.status == .pending else { return }
            task = fresh
        }

        task.attempts += 1
        try write(task)

        var request = Request(
            url: baseURL.appendingPathComponent("items"),
            method: "POST",
            headers: ["Content-Type": "application/json"],
            body: task.body
        )
        request.headers["Idempotency-Key"] = task.idempotencyKey

        let status: Int
        do {
            status = try await send(request)
        } catch is CancellationError {
            throw CancellationError() // outcome unknown, stays pending
        } catch {
            return // disconnect / timeout: stays pending, same key next time
        }

        switch status {
        case 200...299:
            try remove(id)
        case 409:
            task.status = .needsAttention
            task.diagnostic = "409 Conflict for \(task.idempotencyKey): server holds a different body for this key"
            try write(task)
        case 408, 429, 500...599:
            return
        case 400...499:
            task.status = .needsAttention
            task.diagnostic = "HTTP \(status): request rejected, will not be resent"
            try write(task)
        default:
            return
        }
    }

    private func delay(forFailures failures: Int) -> Duration {
        var delay = Duration.seconds(1)
        var step = 1
        while step < failures && delay < maxBackoff {
            delay *= 2
            step += 1
        }
        return min(delay, maxBackoff)
    }

    // MARK: Files

    private func fileURL(_ id: UUID) -> URL {
        directory.appendingPathComponent("\(id.uuidString).json")
    }

    private func write(_ task: StoredTask) throws {
        try JSONEncoder().encode(task).write(to: fileURL(task.id), options: .atomic)
    }

    private func read(_ id: UUID) throws -> StoredTask? {
        let url = fileURL(id)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try decode(Data(contentsOf: url))
    }

    private func remove(_ id: UUID) throws {
        let url = fileURL(id)
        if FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.removeItem(at: url)
        }
    }

    private func readAll() throws -> [StoredTask] {
        let urls = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        return try urls
            .filter { $0.pathExtension == "json" }
            .map { try decode(Data(contentsOf: $0)) }
    }

    private func decode(_ data: Data) throws -> StoredTask {
        return try JSONDecoder().decode(StoredTask.self, from: data)
    }
}
