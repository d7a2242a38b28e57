// From an outside trial (trial 36): written again from its bug's description by another author,
// who had read only the outbox's public surface, its adapter and the shared types, not
// `WorkOrderOutbox` (the first author's own copy with the bug is in git history, at 457dcee).
// The planted bug: the stored record's `CodingKeys` leave out the change ID. (429 was added to the
// retried statuses by the kit: the description given to the author had left it out.)

import Foundation

/// The offline outbox behind the "Pending sync" screen.
///
/// Every change a technician makes to a work order is written to disk as one JSON file before
/// `enqueue` returns, so nothing typed in a basement without signal is lost if the app is killed.
/// `flush()` (called when connectivity comes back, on foregrounding, and from the pull-to-refresh
/// on the pending screen) sends whatever is due:
///
/// - at most `maxConcurrentRequests` requests at once, and at most one per work order, in the
///   order the changes were made on that work order;
/// - 2xx: the server has the change, the file is deleted;
/// - 5xx, 408, 429, timeouts and transport errors: the change stays, with exponential backoff and
///   jitter before the next try;
/// - 409 and other 4xx: the server will not take the change as it is, so it is parked as
///   "needs attention" and not sent again.
///
/// `flush()` makes one pass: it sends everything that is due (including later changes on a work
/// order whose earlier change just went through) and returns. Changes that are backing off are
/// picked up by the next call once their time has come.
public actor BuggyWorkOrderOutbox {
    /// Sent with every request so the backend can drop a replay of a change it already applied.
    public static let changeIDHeader = "X-Client-Change-ID"

    static let maxConcurrentRequests = 3
    static let maxLogEntries = 200
    static let fileNamePrefix = "change-"
    static let fileNameSuffix = ".json"

    private let fileSystem: any WorkOrderOutboxFileSystem
    private let transport: WorkOrderOutboxTransport
    private let now: @Sendable () -> Date
    private let sleep: @Sendable (Duration) async throws -> Void
    private let random: @Sendable () -> Double
    private let backoff: WorkOrderOutboxBackoffPolicy

    /// Pending and needs-attention changes, keyed by the name of their file.
    private var changes: [String: StoredWorkOrderChange] = [:]
    /// Files currently being sent.
    private var inFlight: Set<String> = []
    /// Files whose change was accepted but whose removal failed; retried on the next flush.
    private var acceptedButNotRemoved: Set<String> = []
    private var nextSequence: Int
    private var log: [String] = []

    public init(
        fileSystem: any WorkOrderOutboxFileSystem,
        transport: @escaping @Sendable (WorkOrderOutboxRequest) async throws -> WorkOrderOutboxResponse,
        now: @escaping @Sendable () -> Date,
        sleep: @escaping @Sendable (Duration) async throws -> Void,
        random: @escaping @Sendable () -> Double,
        backoff: WorkOrderOutboxBackoffPolicy = .init()
    ) throws {
        self.fileSystem = fileSystem
        self.transport = transport
        self.now = now
        self.sleep = sleep
        self.random = random
        self.backoff = backoff

        var loaded: [String: StoredWorkOrderChange] = [:]
        var messages: [String] = []
        let decoder = WorkOrderOutboxCoding.fileDecoder()
        for name in try fileSystem.fileNames() where Self.isChangeFile(name) {
            do {
                guard let data = try fileSystem.contents(of: name) else { continue }
                loaded[name] = try decoder.decode(StoredWorkOrderChange.self, from: data)
            } catch {
                // Leave the file where it is: a later app version may be able to read it.
                messages.append("launch: skipped unreadable file \(name) (\(Self.describe(error)))")
            }
        }
        changes = loaded
        nextSequence = (loaded.values.map(\.sequence).max() ?? -1) + 1
        let needingAttention = loaded.values.filter { $0.state == .needsAttention }.count
        messages.append("launch: \(loaded.count) stored change(s), \(needingAttention) needing attention")
        log = messages
    }

    // MARK: - Enqueue

    /// Stores the change on disk. When this returns, the change survives a relaunch.
    public func enqueue<Payload: Encodable & Sendable>(
        _ payload: Payload,
        workOrderID: String,
        changeType: WorkOrderChangeType,
        reference: String
    ) async throws {
        let recordedAt = now()
        let envelope = WorkOrderChangeEnvelope(
            workOrderID: workOrderID,
            changeType: changeType,
            recordedAt: recordedAt,
            clientReference: reference,
            payload: payload)
        let body = try WorkOrderOutboxCoding.wireEncoder().encode(envelope)

        let change = StoredWorkOrderChange(
            sequence: nextSequence,
            workOrderID: workOrderID,
            changeType: changeType,
            reference: reference,
            createdAt: recordedAt,
            attempts: 0,
            state: .pending,
            nextAttemptAt: nil,
            problem: nil,
            requestBody: body)
        let name = Self.fileName(for: change)
        try fileSystem.writeAtomically(try Self.encodeForDisk(change), to: name)

        nextSequence += 1
        changes[name] = change
        record("enqueued \(reference) (\(changeType.rawValue) on \(workOrderID)) as \(change.changeID.uuidString)")
    }

    // MARK: - Sending

    /// Sends every change that is due now, then returns.
    public func flush() async {
        retryPendingRemovals()
        guard !Task.isCancelled else { return }

        await withTaskGroup(of: SendResult.self) { group in
            while true {
                if !Task.isCancelled {
                    while inFlight.count < Self.maxConcurrentRequests, let name = nextDueFileName() {
                        guard let change = changes[name] else { break }
                        inFlight.insert(name)
                        let request = Self.request(for: change)
                        let transport = self.transport
                        record("sending \(change.reference) as \(change.changeID.uuidString), attempt \(change.attempts + 1)")
                        group.addTask {
                            do {
                                return SendResult(fileName: name, outcome: .response(try await transport(request)))
                            } catch is CancellationError {
                                return SendResult(fileName: name, outcome: .cancelled)
                            } catch {
                                return SendResult(fileName: name, outcome: .failed(Self.describe(error)))
                            }
                        }
                    }
                }
                guard let result = await group.next() else { break }
                inFlight.remove(result.fileName)
                handle(result)
            }
        }
    }

    /// The next change to send: the oldest change, across work orders, that is first in line on
    /// its work order, due, and whose work order has nothing in flight.
    private func nextDueFileName() -> String? {
        let currentTime = now()
        var firstInLine: [String: (name: String, change: StoredWorkOrderChange)] = [:]
        for (name, change) in changes where change.state == .pending {
            if let current = firstInLine[change.workOrderID], current.change.sortsBefore(change) { continue }
            firstInLine[change.workOrderID] = (name, change)
        }
        let busyWorkOrders = Set(inFlight.compactMap { changes[$0]?.workOrderID })
        return firstInLine.values
            .filter { !busyWorkOrders.contains($0.change.workOrderID) }
            .filter { ($0.change.nextAttemptAt ?? .distantPast) <= currentTime }
            .min { $0.change.sortsBefore($1.change) }?
            .name
    }

    private func handle(_ result: SendResult) {
        guard var change = changes[result.fileName] else { return }
        let name = result.fileName

        switch result.outcome {
        case .response(let response) where (200..<300).contains(response.statusCode):
            changes[name] = nil
            record("\(change.reference) accepted (HTTP \(response.statusCode))")
            remove(name)
            return

        case .response(let response) where Self.isRetryable(statusCode: response.statusCode):
            scheduleRetry(&change, problem: "HTTP \(response.statusCode)")

        case .response(let response):
            change.attempts += 1
            change.state = .needsAttention
            change.nextAttemptAt = nil
            if let code = WorkOrderOutboxCoding.errorCode(in: response.body) {
                change.problem = "HTTP \(response.statusCode) (\(code))"
            } else {
                change.problem = "HTTP \(response.statusCode)"
            }
            record("\(change.reference) needs attention: \(change.problem ?? "")")

        case .failed(let description):
            scheduleRetry(&change, problem: description)

        case .cancelled:
            record("\(change.reference) send cancelled; will be sent again")
            return
        }

        changes[name] = change
        save(change, to: name)
    }

    private func scheduleRetry(_ change: inout StoredWorkOrderChange, problem: String) {
        change.attempts += 1
        let delay = backoff.delay(afterFailedAttempts: change.attempts, unit: random())
        change.nextAttemptAt = now().addingTimeInterval(delay)
        change.problem = problem
        record("\(change.reference) failed (\(problem)); retry \(change.attempts + 1) in \(String(format: "%.1f", delay))s")
    }

    private static func isRetryable(statusCode: Int) -> Bool {
        (500..<600).contains(statusCode) || statusCode == 408 || statusCode == 429
    }

    // MARK: - Disk

    private func save(_ change: StoredWorkOrderChange, to name: String) {
        do {
            try fileSystem.writeAtomically(try Self.encodeForDisk(change), to: name)
        } catch {
            // The in-memory state is still right for this launch; the file keeps the last state
            // that was written, which at worst means an earlier retry time after a relaunch.
            record("could not update \(name): \(Self.describe(error))")
        }
    }

    private func remove(_ name: String) {
        do {
            try fileSystem.removeFile(named: name)
            acceptedButNotRemoved.remove(name)
        } catch {
            acceptedButNotRemoved.insert(name)
            record("could not remove \(name): \(Self.describe(error))")
        }
    }

    private func retryPendingRemovals() {
        for name in acceptedButNotRemoved.sorted() {
            remove(name)
        }
    }

    private static func encodeForDisk(_ change: StoredWorkOrderChange) throws -> Data {
        try WorkOrderOutboxCoding.fileEncoder().encode(change)
    }

    private static func fileName(for change: StoredWorkOrderChange) -> String {
        "\(fileNamePrefix)\(change.changeID.uuidString.lowercased())\(fileNameSuffix)"
    }

    private static func isChangeFile(_ name: String) -> Bool {
        name.hasPrefix(fileNamePrefix) && name.hasSuffix(fileNameSuffix)
    }

    // MARK: - Requests

    private static func request(for change: StoredWorkOrderChange) -> WorkOrderOutboxRequest {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/")
        let workOrder = change.workOrderID.addingPercentEncoding(withAllowedCharacters: allowed) ?? change.workOrderID
        return WorkOrderOutboxRequest(
            method: "POST",
            path: "/v1/work-orders/\(workOrder)/changes",
            headers: [
                changeIDHeader: change.changeID.uuidString,
                "Content-Type": "application/json",
            ],
            body: change.requestBody)
    }

    // MARK: - Reading

    /// What the "Pending sync" screen lists, oldest first.
    public func summaries() -> [WorkOrderOutboxChangeSummary] {
        changes.values.sorted { $0.sortsBefore($1) }.map(\.summary)
    }

    /// What happened lately, for the diagnostics screen. Never contains payloads.
    public var recentLog: [String] { log }

    /// Reads the outbox directory without starting an outbox (used by the support export).
    public static func storedChanges(in fileSystem: any WorkOrderOutboxFileSystem) throws -> [WorkOrderOutboxChangeSummary] {
        let decoder = WorkOrderOutboxCoding.fileDecoder()
        var stored: [StoredWorkOrderChange] = []
        for name in try fileSystem.fileNames() where isChangeFile(name) {
            guard let data = try fileSystem.contents(of: name) else { continue }
            stored.append(try decoder.decode(StoredWorkOrderChange.self, from: data))
        }
        return stored.sorted { $0.sortsBefore($1) }.map(\.summary)
    }

    // MARK: - Log

    private func record(_ message: String) {
        log.append(message)
        if log.count > Self.maxLogEntries {
            log.removeFirst(log.count - Self.maxLogEntries)
        }
    }

    /// The error's type and code only; localized descriptions can echo URLs and user input.
    private static func describe(_ error: any Error) -> String {
        if let urlError = error as? URLError {
            return urlError.code == .timedOut ? "timed out" : "URLError \(urlError.code.rawValue)"
        }
        let nsError = error as NSError
        return "\(String(describing: type(of: error))) \(nsError.code)"
    }
}

// MARK: - Stored change

/// One change as it is kept on disk, one file per change.
struct StoredWorkOrderChange: Codable, Sendable {
    var changeID = UUID()
    /// Breaks ties between changes recorded within the same clock tick.
    var sequence: Int
    var workOrderID: String
    var changeType: WorkOrderChangeType
    var reference: String
    var createdAt: Date
    var attempts: Int
    var state: WorkOrderOutboxChangeSummary.State
    var nextAttemptAt: Date?
    var problem: String?
    /// The wire body, encoded once at enqueue so every attempt sends the same bytes.
    var requestBody: Data

    /// Same snake_case naming as the wire format, so support can read a file next to a request.
    enum CodingKeys: String, CodingKey {
        case sequence
        case workOrderID = "work_order_id"
        case changeType = "change_type"
        case reference
        case createdAt = "created_at"
        case attempts
        case state
        case nextAttemptAt = "next_attempt_at"
        case problem
        case requestBody = "request_body"
    }

    func sortsBefore(_ other: StoredWorkOrderChange) -> Bool {
        if createdAt != other.createdAt { return createdAt < other.createdAt }
        return sequence < other.sequence
    }

    var summary: WorkOrderOutboxChangeSummary {
        WorkOrderOutboxChangeSummary(
            changeID: changeID,
            reference: reference,
            workOrderID: workOrderID,
            changeType: changeType,
            state: state,
            attempts: attempts,
            createdAt: createdAt,
            nextAttemptAt: nextAttemptAt,
            problem: problem,
            requestBody: requestBody)
    }
}

// MARK: - Send results

private struct SendResult: Sendable {
    enum Outcome: Sendable {
        case response(WorkOrderOutboxResponse)
        case failed(String)
        case cancelled
    }

    var fileName: String
    var outcome: Outcome
}
