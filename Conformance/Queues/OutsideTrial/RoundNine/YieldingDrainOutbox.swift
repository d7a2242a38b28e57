import Foundation

/// One write the user made, possibly offline. Stored (with its key) before anything is sent.
struct DrainMutation: Codable, Sendable, Identifiable, Equatable {
    enum State: String, Codable, Sendable {
        case waiting
        case needsAttention
    }

    let id: UUID
    /// The caller's reference for this action (a draft ID in the app; the kit's operation ID in tests).
    let label: String
    let entity: String?
    /// Chosen once, at enqueue time, stored with the body, never changed.
    let idempotencyKey: String
    /// The exact bytes of the first attempt; every resend carries them.
    let body: Data
    let createdAt: Date
    var state: State
    var attempts: Int
    /// Due date of the next attempt (capped exponential backoff is stored as a date).
    var notBefore: Date
    /// Why the mutation stopped (set with `.needsAttention`). Never contains body values.
    var problem: String?
}

/// An offline outbox as an actor. `flush()` runs one drain at a time; a flush that arrives while a
/// drain runs joins it. The drain sends due mutations one by one and yields to other work before
/// the first send and between sends (the app does this so UI-driven enqueues interleave).
actor YieldingDrainOutbox {
    struct Response: Sendable {
        let status: Int
        let body: Data

        init(status: Int, body: Data = Data()) {
            self.status = status
            self.body = body
        }
    }

    typealias Send = @Sendable (_ idempotencyKey: String, _ body: Data) async throws -> Response

    struct RetryPolicy: Sendable {
        var base: TimeInterval = 1
        var cap: TimeInterval = 30

        /// 1 s, 2 s, 4 s … capped. The exponent is clamped, so attempt 70 cannot overflow.
        func delay(afterAttempt attempt: Int) -> TimeInterval {
            let exponent = Double(min(max(attempt - 1, 0), 30))
            return min(cap, base * pow(2, exponent))
        }
    }

    static let fileName = "pending-mutations.json"

    private let fileURL: URL
    private let send: Send
    private let now: @Sendable () -> Date
    private let retryPolicy: RetryPolicy
    private let redactedFields: Set<String>
    private var mutations: [DrainMutation]
    private var currentDrain: Task<Void, Never>?
    private(set) var log: [String] = []
    private let logLimit = 500

    init(
        directory: URL,
        retryPolicy: RetryPolicy = RetryPolicy(),
        redactedFields: Set<String> = [],
        now: @escaping @Sendable () -> Date = Date.init,
        send: @escaping Send
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.fileURL = directory.appendingPathComponent(Self.fileName)
        self.send = send
        self.now = now
        self.retryPolicy = retryPolicy
        self.redactedFields = redactedFields
        self.mutations = try Self.readMutations(at: directory.appendingPathComponent(Self.fileName))
    }

    // MARK: - App API

    var waitingCount: Int { mutations.filter { $0.state == .waiting }.count }
    var mutationsNeedingAttention: [DrainMutation] { mutations.filter { $0.state == .needsAttention } }

    /// Stores the mutation (key chosen here) and returns once it is on disk. Does not send.
    @discardableResult
    func enqueue(label: String, entity: String? = nil, body: Data) throws -> DrainMutation {
        let stamp = now()
        let mutation = DrainMutation(
            id: UUID(), label: label, entity: entity, idempotencyKey: UUID().uuidString, body: body,
            createdAt: stamp, state: .waiting, attempts: 0, notBefore: stamp, problem: nil)
        mutations.append(mutation)
        do {
            try save()
        } catch {
            mutations.removeAll { $0.id == mutation.id }
            throw error
        }
        record("queued \(label) \(Self.redactedSummary(of: body, hiding: redactedFields))")
        return mutation
    }

    /// Sends every due mutation. If a drain is already running, waits for it instead of starting
    /// a second one (so one instance never has two requests for one mutation).
    func flush() async {
        if let running = currentDrain {
            await running.value
            return
        }
        let drain = Task { await self.drainDueMutations() }
        currentDrain = drain
        await withTaskCancellationHandler {
            await drain.value
        } onCancel: {
            drain.cancel()
        }
    }

    // MARK: - Drain

    private func drainDueMutations() async {
        defer { currentDrain = nil }
        await Task.yield()
        while !Task.isCancelled, let next = nextDueMutation() {
            await deliver(next)
            await Task.yield()
        }
    }

    private func nextDueMutation() -> DrainMutation? {
        let moment = now()
        return mutations
            .filter { $0.state == .waiting && $0.notBefore <= moment }
            .min { ($0.notBefore, $0.createdAt) < ($1.notBefore, $1.createdAt) }
    }

    private func deliver(_ mutation: DrainMutation) async {
        guard let before = position(of: mutation.id) else { return }
        mutations[before].attempts += 1
        let attempt = mutations[before].attempts
        persistQuietly()

        let outcome: Result<Response, any Error>
        do {
            outcome = .success(try await send(mutation.idempotencyKey, mutation.body))
        } catch {
            outcome = .failure(error)
        }

        // The array may have changed while we were suspended: look the mutation up again.
        guard let index = position(of: mutation.id) else { return }
        switch outcome {
        case .success(let response) where (200..<300).contains(response.status):
            mutations.remove(at: index)
            record("sent \(mutation.label) (attempt \(attempt), HTTP \(response.status))")
        case .success(let response) where Self.isTerminalClientError(response.status):
            let reason = Self.describeRejection(status: response.status, body: response.body)
            mutations[index].state = .needsAttention
            mutations[index].problem = reason
            record("stopped \(mutation.label): \(reason)")
        case .success(let response):
            // 5xx, 408, 429, or anything else that is not an explicit success: outcome unknown or
            // "try later". Keep everything, same key and bytes, retry after the backoff.
            scheduleRetry(at: index, attempt: attempt, reason: "HTTP \(response.status)")
        case .failure(let error):
            // Lost response (dropped connection, timeout, cancelled data task): the server may
            // have committed. Same key and bytes next time.
            scheduleRetry(at: index, attempt: attempt, reason: "no response (\(type(of: error)))")
        }
        persistQuietly()
    }

    private func scheduleRetry(at index: Int, attempt: Int, reason: String) {
        let delay = retryPolicy.delay(afterAttempt: attempt)
        mutations[index].notBefore = now().addingTimeInterval(delay)
        record("retry \(mutations[index].label) in \(delay) s after \(reason)")
    }

    private func position(of id: UUID) -> Int? {
        mutations.firstIndex { $0.id == id }
    }

    // MARK: - Persistence

    private func save() throws {
        let data = try JSONEncoder().encode(mutations)
        try data.write(to: fileURL, options: .atomic)
    }

    private func persistQuietly() {
        do {
            try save()
        } catch {
            record("could not save the outbox: \(type(of: error))")
        }
    }

    static func readMutations(at fileURL: URL) throws -> [DrainMutation] {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return [] }
        return try JSONDecoder().decode([DrainMutation].self, from: Data(contentsOf: fileURL))
    }

    /// Reads what is on disk without a live outbox (used by support tooling and tests).
    static func storedMutations(in directory: URL) throws -> [DrainMutation] {
        try readMutations(at: directory.appendingPathComponent(fileName))
    }

    // MARK: - Classification and diagnostics

    static func isTerminalClientError(_ status: Int) -> Bool {
        (400..<500).contains(status) && status != 408 && status != 429
    }

    /// Status plus the server's machine-readable error code; never the server's message, which
    /// may quote rejected values.
    static func describeRejection(status: Int, body: Data) -> String {
        var text = status == 409
            ? "HTTP 409: the server holds this key with a different body"
            : "HTTP \(status): rejected by the server"
        if let code = errorCode(in: body) { text += " (\(code))" }
        return text
    }

    static func errorCode(in body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let code = object["error"] as? String,
              (1...64).contains(code.count),
              code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") })
        else { return nil }
        return code
    }

    /// The body as JSON with every redacted field's value replaced, whatever its type.
    static func redactedSummary(of body: Data, hiding fields: Set<String>) -> String {
        let hidden = Set(fields.map { $0.lowercased() })
        guard let object = try? JSONSerialization.jsonObject(with: body) else {
            return "<\(body.count) bytes>"
        }
        let cleaned = redact(object, hidden)
        guard JSONSerialization.isValidJSONObject(cleaned),
              let data = try? JSONSerialization.data(withJSONObject: cleaned, options: [.sortedKeys]),
              let text = String(data: data, encoding: .utf8)
        else { return "<\(body.count) bytes>" }
        return text
    }

    private static func redact(_ value: Any, _ hidden: Set<String>) -> Any {
        if let object = value as? [String: Any] {
            var copy: [String: Any] = [:]
            for (name, inner) in object {
                copy[name] = hidden.contains(name.lowercased()) ? "<redacted>" : redact(inner, hidden)
            }
            return copy
        }
        if let array = value as? [Any] {
            return array.map { redact($0, hidden) }
        }
        return value
    }

    private func record(_ line: String) {
        log.append(line)
        if log.count > logLimit { log.removeFirst(log.count - logLimit) }
    }
}
