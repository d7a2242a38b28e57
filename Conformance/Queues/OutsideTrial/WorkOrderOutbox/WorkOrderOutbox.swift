// From an outside trial (trial 36): written from the docs alone by an author who had read only
// the kit's README, Docs and public API; bundled as written, with its names changed only.

import Foundation

/// The offline write queue ("outbox") for work-order notes and status changes.
///
/// - Every change is written to its own file (atomically) before `enqueue` returns, with an
///   idempotency key generated once, at enqueue, and the exact request bytes.
/// - `flush()` sends up to `maxConcurrentRequests` changes at once, across work orders; the
///   changes of one work order go one at a time, oldest first.
/// - 2xx removes the change. 5xx, 408, 429 and transport errors are retried with the same key
///   and bytes after a capped, jittered exponential backoff. Any other status stops the change
///   ("needs attention") without retrying.
/// - A new instance over the same directory (after a crash or an update) picks everything up
///   again with the same keys.
public actor WorkOrderOutbox {
    public static let changeIDHeader = "X-Client-Change-ID"

    public struct Configuration: Sendable {
        public var maxConcurrentRequests: Int
        public var backoff: WorkOrderOutboxBackoffPolicy
        public var maxLogLines: Int

        public init(maxConcurrentRequests: Int = 3, backoff: WorkOrderOutboxBackoffPolicy = WorkOrderOutboxBackoffPolicy(), maxLogLines: Int = 500) {
            self.maxConcurrentRequests = maxConcurrentRequests
            self.backoff = backoff
            self.maxLogLines = maxLogLines
        }
    }

    private let fileSystem: any WorkOrderOutboxFileSystem
    private let transport: WorkOrderOutboxTransport
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (Duration) async throws -> Void
    private let random: @Sendable () -> Double
    private let configuration: Configuration

    private var changes: [UUID: StoredChange] = [:]
    private var sending: Set<UUID> = []
    private var nextSequence: Int
    private var log: [String] = []

    public init(
        fileSystem: any WorkOrderOutboxFileSystem,
        transport: @escaping WorkOrderOutboxTransport,
        now: @escaping @Sendable () -> Date = Date.init,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        configuration: Configuration = Configuration()
    ) throws {
        self.fileSystem = fileSystem
        self.transport = transport
        self.now = now
        self.sleep = sleep
        self.random = random
        self.configuration = configuration
        let stored = try Self.loadChanges(from: fileSystem)
        var byID: [UUID: StoredChange] = [:]
        for change in stored { byID[change.changeID] = change }
        self.changes = byID
        self.nextSequence = (stored.map(\.sequence).max() ?? 0) + 1
    }

    // MARK: - Enqueue

    /// Records a change. When this returns, the change is on disk and will be sent, with the
    /// returned change ID as its idempotency key, however often the app is killed meanwhile.
    @discardableResult
    public func enqueue<Payload: Encodable & Sendable>(
        _ payload: Payload, workOrderID: String, changeType: WorkOrderChangeType, reference: String
    ) throws -> UUID {
        let createdAt = now()
        let envelope = WorkOrderChangeEnvelope(
            workOrderID: workOrderID, changeType: changeType, recordedAt: createdAt,
            clientReference: reference, payload: payload)
        let body = try WorkOrderOutboxCoding.wireEncoder().encode(envelope)
        let change = StoredChange(
            changeID: UUID(), sequence: nextSequence, reference: reference, workOrderID: workOrderID,
            changeType: changeType, createdAt: createdAt, requestBody: body, attempts: 0,
            nextAttemptAt: nil, state: .pending, problem: nil)
        try save(change)
        nextSequence += 1
        changes[change.changeID] = change
        record("queued \(change.logName)")
        return change.changeID
    }

    // MARK: - Sending

    /// Sends everything that can be sent, waiting out backoff delays, and returns when no
    /// pending change is left that this pass could send (the rest is stopped, or being sent by
    /// another pass). Returns early when cancelled; nothing is lost.
    public func flush() async {
        await withTaskGroup(of: PassEvent.self) { group in
            var running = 0
            var armedWakes: [Date] = []
            while !Task.isCancelled {
                while running < configuration.maxConcurrentRequests, let change = nextSendable(at: now()) {
                    sending.insert(change.changeID)
                    running += 1
                    let id = change.changeID
                    group.addTask { await self.deliver(id); return .delivered }
                }
                if running < configuration.maxConcurrentRequests, let wake = nextWake(after: now()),
                   wake < (armedWakes.min() ?? .distantFuture) {
                    armedWakes.append(wake)
                    let delay = Duration.seconds(max(wake.timeIntervalSince(now()), 0.001))
                    let sleep = self.sleep
                    group.addTask {
                        do { try await sleep(delay) } catch { return .cancelled }
                        return .woke(wake)
                    }
                }
                if running == 0 && armedWakes.isEmpty { break }
                guard let event = await group.next() else { break }
                switch event {
                case .delivered: running -= 1
                case .woke(let wake): armedWakes.removeAll { $0 == wake }
                case .cancelled: break
                }
            }
            group.cancelAll()
        }
    }

    private enum PassEvent: Sendable { case delivered, woke(Date), cancelled }

    /// The oldest sendable change of a work order whose head is neither being sent nor waiting.
    private func nextSendable(at instant: Date) -> StoredChange? {
        for head in laneHeads() where !sending.contains(head.changeID) {
            if let due = head.nextAttemptAt, due > instant { continue }
            return head
        }
        return nil
    }

    /// The earliest due time among waiting lane heads.
    private func nextWake(after instant: Date) -> Date? {
        laneHeads()
            .filter { !sending.contains($0.changeID) }
            .compactMap(\.nextAttemptAt)
            .filter { $0 > instant }
            .min()
    }

    /// For each work order, its oldest pending change (changes of one work order go in order).
    private func laneHeads() -> [StoredChange] {
        var seen: Set<String> = []
        var heads: [StoredChange] = []
        for change in changes.values.filter({ $0.state == .pending }).sorted(by: { $0.sequence < $1.sequence })
        where seen.insert(change.workOrderID).inserted {
            heads.append(change)
        }
        return heads
    }

    private func deliver(_ id: UUID) async {
        defer { sending.remove(id) }
        guard var change = changes[id], change.state == .pending else { return }
        change.attempts += 1
        change.nextAttemptAt = nil
        do { try save(change) } catch {
            record("could not save \(change.logName) before sending: \(type(of: error))")
        }
        changes[id] = change

        let request = WorkOrderOutboxRequest(
            method: "POST",
            path: "/v1/work-orders/\(change.workOrderID)/changes",
            headers: [Self.changeIDHeader: change.changeID.uuidString, "Content-Type": "application/json"],
            body: change.requestBody)
        let outcome: Outcome
        do {
            let response = try await transport(request)
            outcome = Outcome(response)
        } catch {
            outcome = .unknown(Self.describe(error))
        }
        guard var current = changes[id] else { return }

        switch outcome {
        case .delivered(let status):
            do {
                try fileSystem.removeFile(named: current.fileName)
            } catch {
                // The file comes back at the next launch and is sent again under the same key:
                // the server answers it as a repeat.
                record("could not remove \(current.logName): \(type(of: error))")
            }
            changes[id] = nil
            record("\(current.logName) attempt \(current.attempts): HTTP \(status), done")
        case .retry(let reason):
            let delay = configuration.backoff.delay(afterFailedAttempts: current.attempts, unit: random())
            current.nextAttemptAt = now().addingTimeInterval(delay)
            changes[id] = current
            persist(current)
            record("\(current.logName) attempt \(current.attempts): \(reason), retry in \(String(format: "%.1f", delay)) s")
        case .unknown(let reason):
            let delay = configuration.backoff.delay(afterFailedAttempts: current.attempts, unit: random())
            current.nextAttemptAt = now().addingTimeInterval(delay)
            changes[id] = current
            persist(current)
            record("\(current.logName) attempt \(current.attempts): \(reason), retry in \(String(format: "%.1f", delay)) s")
        case .stop(let problem):
            current.state = .needsAttention
            current.problem = problem
            changes[id] = current
            persist(current)
            record("\(current.logName) attempt \(current.attempts): \(problem), needs attention")
        }
    }

    private enum Outcome {
        case delivered(Int)
        case retry(String)
        case unknown(String)
        case stop(String)

        init(_ response: WorkOrderOutboxResponse) {
            let status = response.statusCode
            switch status {
            case 200..<300:
                self = .delivered(status)
            case 408, 429, 500..<600:
                self = .retry("HTTP \(status)")
            default:
                var problem = "HTTP \(status)"
                if status == 409 { problem += " conflict" }
                if let code = WorkOrderOutboxCoding.errorCode(in: response.body) { problem += " (\(code))" }
                self = .stop(problem)
            }
        }
    }

    private static func describe(_ error: any Error) -> String {
        if error is CancellationError { return "cancelled" }
        if let urlError = error as? URLError { return "URLError \(urlError.code.rawValue)" }
        return "transport error \(type(of: error))"
    }

    // MARK: - Reading

    /// Changes still waiting to be sent or stopped, oldest first (for the "Pending sync" screen).
    public func summaries() -> [WorkOrderOutboxChangeSummary] {
        changes.values.sorted { $0.sequence < $1.sequence }.map(\.summary)
    }

    /// Recent log lines, for a support bundle. Never contains request bodies.
    public var recentLog: [String] { log }

    /// Reads the stored changes without an outbox instance (debug screens, extensions).
    public static func storedChanges(in fileSystem: any WorkOrderOutboxFileSystem) throws -> [WorkOrderOutboxChangeSummary] {
        try loadChanges(from: fileSystem).map(\.summary)
    }

    // MARK: - Storage

    private static let fileSuffix = ".change.json"

    private static func loadChanges(from fileSystem: any WorkOrderOutboxFileSystem) throws -> [StoredChange] {
        let decoder = WorkOrderOutboxCoding.fileDecoder()
        var result: [StoredChange] = []
        for name in try fileSystem.fileNames() where name.hasSuffix(fileSuffix) {
            guard let data = try fileSystem.contents(of: name) else { continue }
            result.append(try decoder.decode(StoredChange.self, from: data))
        }
        return result.sorted { $0.sequence < $1.sequence }
    }

    private func save(_ change: StoredChange) throws {
        let data = try WorkOrderOutboxCoding.fileEncoder().encode(change)
        try fileSystem.writeAtomically(data, to: change.fileName)
    }

    private func persist(_ change: StoredChange) {
        do { try save(change) } catch {
            record("could not save \(change.logName): \(type(of: error))")
        }
    }

    private func record(_ line: String) {
        log.append("\(ISO8601DateFormatter().string(from: now())) \(line)")
        if log.count > configuration.maxLogLines { log.removeFirst(log.count - configuration.maxLogLines) }
    }

    struct StoredChange: Codable, Sendable {
        var changeID: UUID
        var sequence: Int
        var reference: String
        var workOrderID: String
        var changeType: WorkOrderChangeType
        var createdAt: Date
        var requestBody: Data
        var attempts: Int
        var nextAttemptAt: Date?
        var state: WorkOrderOutboxChangeSummary.State
        var problem: String?

        var fileName: String { String(format: "%010d", sequence) + WorkOrderOutbox.fileSuffix }
        var logName: String { "change \(reference) [\(workOrderID)] \(changeID.uuidString.prefix(8))" }
        var summary: WorkOrderOutboxChangeSummary {
            WorkOrderOutboxChangeSummary(
                changeID: changeID, reference: reference, workOrderID: workOrderID, changeType: changeType,
                state: state, attempts: attempts, createdAt: createdAt, nextAttemptAt: nextAttemptAt,
                problem: problem, requestBody: requestBody)
        }
    }
}
