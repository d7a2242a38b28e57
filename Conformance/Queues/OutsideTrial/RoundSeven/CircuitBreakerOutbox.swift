// From an outside trial (round seven): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only. Its bug (by its author's
// choice): each time the breaker trips again without a success in between, its cool-down doubles
// (30 s × 2^trips) with no ceiling, past the declared 30 s cap (Q8).

import Foundation

/// CircuitBreakerOutbox: a retry-policy strategy object plus a circuit breaker. After three failures in
/// a row (5xx, 408, 429, a transport error) the breaker opens and no request leaves the device
/// for a cool-down; the next sync after it sends one request (half-open). Tasks and the breaker
/// live in one state file, so a relaunch does not hammer a server that is down.
public protocol CircuitBreakerRetryPolicyProtocol: Sendable {
    /// The wait before retrying a task that has failed `failures` times (1 for the first failure).
    func delay(afterFailures failures: Int) -> TimeInterval
    /// Whether an HTTP status is worth retrying with the same key.
    func isRetryable(status: Int) -> Bool
}

public struct CircuitBreakerRetryPolicy: CircuitBreakerRetryPolicyProtocol {
    public var base: TimeInterval
    public var cap: TimeInterval
    public init(base: TimeInterval = 1, cap: TimeInterval = 30) { self.base = base; self.cap = cap }
    public func delay(afterFailures failures: Int) -> TimeInterval {
        min(cap, base * pow(2, Double(min(max(failures - 1, 0), 30))))
    }
    public func isRetryable(status: Int) -> Bool {
        status >= 500 || status == 408 || status == 429 || (300..<400).contains(status)
    }
}

public struct CircuitBreaker: Codable, Sendable, Equatable {
    public var threshold = 3
    public var coolDown: TimeInterval = 30
    public var consecutiveFailures = 0
    public var trips = 0
    public var openUntil: Date?

    public init(threshold: Int = 3, coolDown: TimeInterval = 30) {
        self.threshold = threshold
        self.coolDown = coolDown
    }

    public func allowsRequest(at date: Date) -> Bool {
        guard let openUntil else { return true }
        return date >= openUntil
    }

    public mutating func recordSuccess() {
        consecutiveFailures = 0
        trips = 0
        openUntil = nil
    }

    /// The server answered (it is up), but not with a success.
    public mutating func recordAnswer() {
        consecutiveFailures = 0
        openUntil = nil
    }

    /// Returns true when this failure opened the breaker.
    public mutating func recordFailure(at date: Date) -> Bool {
        consecutiveFailures += 1
        guard consecutiveFailures >= threshold else { return false }
        // Each trip in a row waits twice as long as the one before.
        openUntil = date.addingTimeInterval(coolDown * pow(2, Double(trips)))
        trips += 1
        consecutiveFailures = 0
        return true
    }
}

public struct CircuitBreakerTask: Codable, Sendable, Equatable {
    public var operation: String
    public var key: String
    public var body: Data
    public var enqueuedAt: Date
    public var failures = 0
    public var attempts = 0
    public var nextAttempt: Date
    public var halted: String?
}

public struct CircuitBreakerState: Codable, Sendable {
    public var tasks: [CircuitBreakerTask] = []
    public var breaker = CircuitBreaker()
}

public actor CircuitBreakerOutbox {
    public typealias Transport = @Sendable (_ key: String, _ body: Data) async throws -> Int

    private let file: URL
    private let transport: Transport
    private let policy: any CircuitBreakerRetryPolicyProtocol
    private let now: @Sendable () -> Date
    private var state: CircuitBreakerState
    private var leased: Set<String> = []
    public private(set) var diagnostics: [String] = []

    public init(directory: URL, policy: any CircuitBreakerRetryPolicyProtocol = CircuitBreakerRetryPolicy(),
                now: @escaping @Sendable () -> Date, transport: @escaping Transport) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        file = directory.appendingPathComponent("breaker-outbox.json")
        self.transport = transport
        self.policy = policy
        self.now = now
        state = try Self.read(file)
    }

    public static func read(_ file: URL) throws -> CircuitBreakerState {
        guard FileManager.default.fileExists(atPath: file.path) else { return CircuitBreakerState() }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return try decoder.decode(CircuitBreakerState.self, from: Data(contentsOf: file))
    }

    public static func stored(in directory: URL) throws -> CircuitBreakerState {
        try read(directory.appendingPathComponent("breaker-outbox.json"))
    }

    private func persist() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        try encoder.encode(state).write(to: file, options: .atomic)
    }

    public func enqueue(operation: String, body: Data) throws {
        let t = now()
        state.tasks.append(CircuitBreakerTask(operation: operation, key: UUID().uuidString, body: body,
                                             enqueuedAt: t, nextAttempt: t))
        try persist()
        diagnostics.append("queued \(operation)")
    }

    public func drain() async throws {
        let keys = state.tasks.map(\.key)
        for key in keys {
            guard state.breaker.allowsRequest(at: now()) else {
                diagnostics.append("breaker open until \(state.breaker.openUntil.map { "\($0.timeIntervalSince1970)" } ?? "?"): sync skipped")
                return
            }
            guard let i = state.tasks.firstIndex(where: { $0.key == key }), state.tasks[i].halted == nil,
                  state.tasks[i].nextAttempt <= now(), !leased.contains(key) else { continue }
            leased.insert(key)
            defer { leased.remove(key) }
            state.tasks[i].attempts += 1
            try persist()
            let task = state.tasks[i]
            let result: Result<Int, any Error>
            do { result = .success(try await transport(task.key, task.body)) } catch { result = .failure(error) }
            try handle(result, key: key)
        }
    }

    private func handle(_ result: Result<Int, any Error>, key: String) throws {
        guard let i = state.tasks.firstIndex(where: { $0.key == key }) else { return }
        let op = state.tasks[i].operation
        switch result {
        case .success(let code) where (200..<300).contains(code):
            state.tasks.remove(at: i)
            state.breaker.recordSuccess()
            diagnostics.append("\(op) delivered")
        case .success(let code) where !policy.isRetryable(status: code):
            state.tasks[i].halted = "HTTP \(code)"
            state.breaker.recordAnswer()
            diagnostics.append("\(op) halted: HTTP \(code)")
        case .success(let code):
            if (300..<400).contains(code) { state.breaker.recordAnswer() }
            else if state.breaker.recordFailure(at: now()) { diagnostics.append("breaker opened after HTTP \(code)") }
            scheduleRetry(i, reason: "HTTP \(code)")
        case .failure:
            if state.breaker.recordFailure(at: now()) { diagnostics.append("breaker opened after a transport error") }
            scheduleRetry(i, reason: "transport error")
        }
        try persist()
    }

    private func scheduleRetry(_ i: Int, reason: String) {
        state.tasks[i].failures += 1
        let delay = policy.delay(afterFailures: state.tasks[i].failures)
        state.tasks[i].nextAttempt = now().addingTimeInterval(delay)
        diagnostics.append("\(state.tasks[i].operation) retry in \(delay) s (\(reason))")
    }
}
