import Foundation

// MARK: - JSON model

public enum BOJSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([BOJSONValue])
    case object([String: BOJSONValue])

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([BOJSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: BOJSONValue].self)) }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

// MARK: - Transport

public struct BORequest: Sendable, Equatable {
    public let taskID: UUID
    public let operation: String
    public let idempotencyKey: String
    public let body: Data
    public var headers: [String: String] { ["Idempotency-Key": idempotencyKey, "Content-Type": "application/json"] }
}

public protocol BOTransport: Sendable {
    /// Returns the HTTP status code; throws on transport errors and timeouts.
    func send(_ request: BORequest) async throws -> Int
}

// MARK: - Persisted task

public struct BOTask: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable { case pending, failed }
    public let id: UUID
    public let operation: String
    public let idempotencyKey: String
    public let body: [String: BOJSONValue]
    public var attempts: Int
    public var notBefore: Date
    public var status: Status
    /// Why the task stopped, for the person who must resolve it (added when bundled: Q4).
    public var failureReason: String? = nil
}

// MARK: - Outbox

public actor BatchingOutbox {
    public static let maxConcurrentSends = 3
    public static let backoffBase: TimeInterval = 1
    public static let backoffCap: TimeInterval = 120

    private let fileURL: URL
    private let transport: BOTransport
    private let now: @Sendable () -> Date
    private let log: @Sendable (String) -> Void
    private var tasks: [BOTask]
    private var inFlight: Set<UUID> = []

    public init(directory: URL,
                transport: BOTransport,
                now: @escaping @Sendable () -> Date = { Date() },
                log: @escaping @Sendable (String) -> Void = { print($0) }) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.fileURL = directory.appendingPathComponent("batching-outbox.json")
        self.transport = transport
        self.now = now
        self.log = log
        if let data = try? Data(contentsOf: fileURL) {
            self.tasks = try JSONDecoder().decode([BOTask].self, from: data)
        } else {
            self.tasks = []
        }
    }

    private func save() throws {
        let data = try JSONEncoder().encode(tasks)
        try data.write(to: fileURL, options: .atomic)
    }

    /// Returns once the task is on disk.
    @discardableResult
    public func submit(operation: String, body: [String: BOJSONValue]) throws -> UUID {
        let task = BOTask(id: UUID(), operation: operation, idempotencyKey: UUID().uuidString,
                          body: body, attempts: 0, notBefore: now(), status: .pending)
        tasks.append(task)
        do { try save() } catch {
            tasks.removeAll { $0.id == task.id }
            throw error
        }
        log("batching-outbox: queued \(task.id) \(operation)")
        return task.id
    }

    /// Convenience for callers holding raw JSON object bytes.
    @discardableResult
    public func submit(operation: String, jsonBody: Data) throws -> UUID {
        try submit(operation: operation, body: try JSONDecoder().decode([String: BOJSONValue].self, from: jsonBody))
    }

    public var pending: [BOTask] { tasks.filter { $0.status == .pending } }
    public var failed: [BOTask] { tasks.filter { $0.status == .failed } }

    static func encodeBody(_ body: [String: BOJSONValue]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(body)
    }

    /// Sends all due tasks, at most `maxConcurrentSends` at a time.
    public func drain() async {
        let current = now()
        var queue = tasks.filter { $0.status == .pending && $0.notBefore <= current && !inFlight.contains($0.id) }
        for task in queue { inFlight.insert(task.id) }
        while !queue.isEmpty {
            let batch = Array(queue.prefix(Self.maxConcurrentSends))
            queue.removeFirst(batch.count)
            let transport = self.transport
            var requests: [BORequest] = []
            for task in batch {
                guard let body = try? Self.encodeBody(task.body) else { inFlight.remove(task.id); continue }
                requests.append(BORequest(taskID: task.id, operation: task.operation,
                                          idempotencyKey: task.idempotencyKey, body: body))
            }
            await withTaskGroup(of: (UUID, Result<Int, Error>).self) { group in
                for request in requests {
                    log("batching-outbox: sending \(request.taskID) \(request.operation)")
                    group.addTask {
                        // The status is bound before the tuple is built: Swift 6.3.1's release
                        // build returned a zeroed or garbage `taskID` from
                        // `(request.taskID, .success(try await transport.send(request)))`
                        // (200 of 200 in a standalone reproduction; debug builds are correct).
                        do {
                            let status = try await transport.send(request)
                            return (request.taskID, .success(status))
                        } catch {
                            return (request.taskID, .failure(error))
                        }
                    }
                }
                for await (id, result) in group { record(result, for: id) }
            }
        }
    }

    private func record(_ result: Result<Int, Error>, for id: UUID) {
        inFlight.remove(id)
        guard let index = tasks.firstIndex(where: { $0.id == id }) else { return }
        switch result {
        case .success(let code) where (200...299).contains(code):
            tasks.remove(at: index)
            log("batching-outbox: done \(id) (\(code))")
        case .success(let code) where (400...499).contains(code) && code != 408 && code != 429:
            tasks[index].status = .failed
            tasks[index].failureReason = "HTTP \(code): rejected by the server; not resent"
            log("batching-outbox: permanently failed \(id) (\(code))")
        case .success(let code):
            retryLater(index, why: "HTTP \(code)")
        case .failure(let error):
            retryLater(index, why: String(describing: type(of: error)))
        }
        do { try save() } catch { log("batching-outbox: save failed: \(type(of: error))") }
    }

    private func retryLater(_ index: Int, why: String) {
        tasks[index].attempts += 1
        let exponent = Double(min(tasks[index].attempts - 1, 30))
        let delay = min(Self.backoffCap, Self.backoffBase * pow(2, exponent))
        tasks[index].notBefore = now().addingTimeInterval(delay)
        log("batching-outbox: retry \(tasks[index].id) in \(delay)s (\(why))")
    }
}
