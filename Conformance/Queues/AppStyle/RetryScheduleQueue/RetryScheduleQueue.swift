import Foundation

/// Outbox that never waits: every task carries `nextAttemptAt`, and `runDuePass()`
/// sends only the tasks whose time has come (per the injected `now`). Transient
/// failures push `nextAttemptAt` out by min(300 s, 1 s * 2^(failures-1)).
///
/// Storage: one JSON file (`outbox.json`) in `directory`, read synchronously in
/// `init`, rewritten atomically after every change.
public actor RetryScheduleQueue {
    public struct Job: Codable, Sendable, Equatable {
        public enum Phase: String, Codable, Sendable {
            case waiting
            case failed
        }

        public let id: UUID
        public let idempotencyKey: String
        public let body: Data
        public let createdAt: Date
        public var phase: Phase
        public var attempts: Int
        public var nextAttemptAt: Date
        public var failureNote: String?
    }

    public struct Outgoing: Sendable {
        public let path: String
        public let method: String
        public let headers: [String: String]
        public let body: Data
    }

    public enum Reply: Sendable {
        case http(Int)
    }

    public protocol Uplink: Sendable {
        func deliver(_ outgoing: Outgoing) async throws -> Reply
    }

    public static let sensitiveFields: Set<String> = ["password", "token", "cardNumber"]

    private let fileURL: URL
    private let uplink: any Uplink
    private let now: @Sendable () -> Date
    private let baseDelay: TimeInterval
    private let maxDelay: TimeInterval

    private var jobs: [Job]
    private var sending: Set<UUID> = []

    public init(
        directory: URL,
        uplink: any Uplink,
        now: @escaping @Sendable () -> Date,
        baseDelay: TimeInterval = 1,
        maxDelay: TimeInterval = 300
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let fileURL = directory.appendingPathComponent("outbox.json")
        self.fileURL = fileURL
        self.uplink = uplink
        self.now = now
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        if FileManager.default.fileExists(atPath: fileURL.path) {
            self.jobs = try JSONDecoder().decode([Job].self, from: Data(contentsOf: fileURL))
        } else {
            self.jobs = []
        }
    }

    // MARK: API

    @discardableResult
    public func submit(body: Data) throws -> UUID {
        let created = now()
        let job = Job(
            id: UUID(),
            idempotencyKey: UUID().uuidString,
            body: body,
            createdAt: created,
            phase: .waiting,
            attempts: 0,
            nextAttemptAt: created,
            failureNote: nil
        )
        var updated = jobs
        updated.append(job)
        try persist(updated)
        jobs = updated
        return job.id
    }

    public func allJobs() -> [Job] { jobs }

    /// Sends each due job once. Jobs not yet due are skipped, never waited for.
    public func runDuePass() async throws {
        let moment = now()
        let dueIDs = jobs
            .filter { $0.phase == .waiting && $0.nextAttemptAt <= moment && !sending.contains($0.id) }
            .map(\.id)

        for id in dueIDs {
            if Task.isCancelled { return }
            guard !sending.contains(id), let job = jobs.first(where: { $0.id == id }), job.phase == .waiting else { continue }
            sending.insert(id)
            defer { sending.remove(id) }

            try update(id) { $0.attempts += 1 }

            let reply: Reply?
            do {
                reply = try await uplink.deliver(Outgoing(
                    path: "/items",
                    method: "POST",
                    headers: ["Idempotency-Key": job.idempotencyKey, "Content-Type": "application/json"],
                    body: job.body
                ))
            } catch {
                reply = nil // disconnected / timed out: unknown outcome
            }

            switch reply {
            case .http(let code) where (200..<300).contains(code):
                try removeJob(id)
            case .http(409):
                try update(id) {
                    $0.phase = .failed
                    $0.failureNote = "409: the server already has a different body for this idempotency key"
                }
            case .http(let code) where code == 408 || code == 429 || code >= 500:
                try scheduleRetry(id)
            case .http(let code) where (400..<500).contains(code):
                try update(id) {
                    $0.phase = .failed
                    $0.failureNote = "HTTP \(code): rejected, will not retry"
                }
            case .http, .none:
                try scheduleRetry(id)
            }
        }
    }

    // MARK: Helpers

    private func scheduleRetry(_ id: UUID) throws {
        let after = now()
        try update(id) { job in
            let exponent = Double(min(max(job.attempts - 1, 0), 40))
            let delay = min(maxDelay, baseDelay * pow(2, exponent))
            job.nextAttemptAt = after.addingTimeInterval(delay)
        }
    }

    private func update(_ id: UUID, _ change: (inout Job) -> Void) throws {
        guard let index = jobs.firstIndex(where: { $0.id == id }) else { return }
        var updated = jobs
        change(&updated[index])
        try persist(updated)
        jobs = updated
    }

    private func removeJob(_ id: UUID) throws {
        let updated = jobs.filter { $0.id != id }
        try persist(updated)
        jobs = updated
    }

    private func persist(_ snapshot: [Job]) throws {
        try JSONEncoder().encode(snapshot).write(to: fileURL, options: .atomic)
    }
}
