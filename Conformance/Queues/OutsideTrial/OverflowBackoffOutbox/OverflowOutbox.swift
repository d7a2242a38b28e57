//  OverflowOutbox.swift
//  Offline write queue ("outbox") for record mutations.
//
//  - One `OverflowOutbox` per process. All mutable state lives on `stateQueue` (a serial DispatchQueue).
//  - Every change is written to `<directory>/outbox.json` (atomic write) before anything is sent.
//  - Each operation gets an idempotency key at enqueue time; the key and the exact body bytes
//    are stored and reused for every retry, across launches.
//  - A sync (`flush`) sends due entries, at most `maxConcurrentRequests` at once, in submit
//    order per record (an update never overtakes an earlier unfinished update of the same record).
//  - Failures are retried with exponential backoff + jitter, kept as a due date in the file
//    (`nextAttemptAt`); a later sync skips entries that are not due yet.
//  - Updates to a record that were never sent are coalesced (the newest body wins).

import Foundation

// MARK: - Transport

public struct OverflowOutboxRequest: Sendable, Equatable {
    public let idempotencyKey: String
    public let body: Data

    public init(idempotencyKey: String, body: Data) {
        self.idempotencyKey = idempotencyKey
        self.body = body
    }
}

public struct OverflowOutboxHTTPResponse: Sendable, Equatable {
    public let statusCode: Int
    public let body: Data

    public init(statusCode: Int, body: Data = Data()) {
        self.statusCode = statusCode
        self.body = body
    }
}

/// The networking layer. `completion` is called exactly once, on any queue.
public protocol OverflowOutboxTransport: Sendable {
    func post(_ request: OverflowOutboxRequest, completion: @escaping @Sendable (Result<OverflowOutboxHTTPResponse, any Error>) -> Void)
}

// MARK: - Model

public enum OverflowOutboxOperationKind: Sendable, Equatable {
    case create
    case update(recordID: String)
}

public struct OverflowOutboxEntry: Codable, Sendable, Equatable {
    public enum State: String, Codable, Sendable {
        case pending
        /// Stopped by a final answer; a person has to look at it. Never sent again.
        case needsAttention
    }

    public let id: UUID
    public let sequence: Int
    /// The caller's name for the operation (the latest one, for a coalesced update).
    public var label: String
    public let recordID: String?
    public let idempotencyKey: String
    public var body: Data
    public let createdAt: Date
    /// Requests sent for this entry so far.
    public var attempts: Int
    /// Unknown or retryable outcomes in a row (drives the backoff).
    public var consecutiveFailures: Int
    public var nextAttemptAt: Date?
    public var state: State
    /// Why the entry stopped (never contains body values or the server's free-text message).
    public var failureReason: String?
}

struct OverflowOutboxFile: Codable {
    var formatVersion: Int = 1
    var nextSequence: Int = 1
    var entries: [OverflowOutboxEntry] = []
}

public struct OverflowBackoffPolicy: Sendable {
    public var base: TimeInterval
    public var maximum: TimeInterval
    /// Multiplier in 0.5...1.0 ("equal jitter"), injectable for tests.
    public var jitter: @Sendable () -> Double

    public init(base: TimeInterval = 1, maximum: TimeInterval = 30,
                jitter: @escaping @Sendable () -> Double = { Double.random(in: 0.5...1.0) }) {
        self.base = base
        self.maximum = maximum
        self.jitter = jitter
    }

    /// Delay before the next attempt after `failures` failures in a row (failures >= 1).
    func delay(afterFailures failures: Int) -> TimeInterval {
        let exponential = base * Double(1 << (failures - 1))
        let capped = min(exponential, maximum)
        return capped * jitter()
    }
}

public enum OverflowOutboxError: Error {
    case persistenceFailed(underlying: any Error)
}

// MARK: - OverflowOutbox

public final class OverflowOutbox: @unchecked Sendable {
    public static let fileName = "outbox.json"

    private let fileURL: URL
    private let transport: any OverflowOutboxTransport
    private let now: @Sendable () -> Date
    private let backoff: OverflowBackoffPolicy
    private let maxConcurrentRequests: Int
    private let retryableClientErrors: Set<Int>
    private let stateQueue = DispatchQueue(label: "com.example.outbox.state")

    // Everything below is only touched on `stateQueue`.
    private var file: OverflowOutboxFile
    private var inFlight: Set<UUID> = []
    private var log: [String] = []
    private var nextSyncID = 1

    private final class Sync: @unchecked Sendable {
        let id: Int
        var ownRequests = 0
        var finished = false
        let completion: @Sendable () -> Void
        init(id: Int, completion: @escaping @Sendable () -> Void) {
            self.id = id
            self.completion = completion
        }
    }

    public init(
        directory: URL,
        transport: any OverflowOutboxTransport,
        now: @escaping @Sendable () -> Date = Date.init,
        backoff: OverflowBackoffPolicy = OverflowBackoffPolicy(),
        maxConcurrentRequests: Int = 2,
        retryableClientErrors: Set<Int> = [408, 429]
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.fileURL = directory.appendingPathComponent(Self.fileName)
        self.transport = transport
        self.now = now
        self.backoff = backoff
        self.maxConcurrentRequests = max(1, maxConcurrentRequests)
        self.retryableClientErrors = retryableClientErrors
        self.file = try Self.readFile(at: fileURL) ?? OverflowOutboxFile()
    }

    // MARK: Public API

    /// Stores the operation (durably) and returns. Nothing is sent until the next `flush`.
    public func enqueue(_ kind: OverflowOutboxOperationKind, body: Data, label: String) throws {
        try stateQueue.sync {
            var updated = file
            if case .update(let recordID) = kind,
               let last = updated.entries.lastIndex(where: { $0.recordID == recordID && $0.state == .pending }),
               updated.entries[last].attempts == 0,
               !inFlight.contains(updated.entries[last].id) {
                // Never sent: its key was never used, so the newest body can replace it.
                updated.entries[last].body = body
                updated.entries[last].label = label
                try save(updated)
                file = updated
                record("\(label): coalesced into pending update of \(recordID)")
                return
            }
            let entry = OverflowOutboxEntry(
                id: UUID(), sequence: updated.nextSequence, label: label, recordID: kind.recordID,
                idempotencyKey: UUID().uuidString, body: body, createdAt: now(), attempts: 0,
                consecutiveFailures: 0, nextAttemptAt: nil, state: .pending, failureReason: nil)
            updated.nextSequence += 1
            updated.entries.append(entry)
            try save(updated)
            file = updated
            record("\(label): queued")
        }
    }

    /// Sends everything that is due. `completion` runs once this sync has nothing left in flight
    /// and nothing more it can send.
    public func flush(completion: @escaping @Sendable () -> Void) {
        stateQueue.async {
            let sync = Sync(id: self.nextSyncID, completion: completion)
            self.nextSyncID += 1
            self.pump(sync)
        }
    }

    public func flush() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            flush { done.resume() }
        }
    }

    public var entries: [OverflowOutboxEntry] { stateQueue.sync { file.entries } }

    /// Recent log lines (for the debug screen and bug reports).
    public func recentLog() -> [String] { stateQueue.sync { log } }

    /// Runs `block` after the work already queued on the outbox's queue.
    public func performAfterPendingWork(_ block: @escaping @Sendable () -> Void) {
        stateQueue.async(execute: block)
    }

    /// Reads the stored entries without starting an outbox (debug screen, migrations).
    public static func storedEntries(in directory: URL) throws -> [OverflowOutboxEntry] {
        try readFile(at: directory.appendingPathComponent(fileName))?.entries ?? []
    }

    // MARK: Sending (on stateQueue)

    private func pump(_ sync: Sync) {
        while inFlight.count < maxConcurrentRequests, let index = nextSendableIndex() {
            guard send(at: index, for: sync) else { break }
        }
        if sync.ownRequests == 0 && !sync.finished {
            sync.finished = true
            sync.completion()
        }
    }

    private func nextSendableIndex() -> Int? {
        let now = self.now()
        var recordsWithEarlierWork = Set<String>()
        for (index, entry) in file.entries.enumerated() where entry.state == .pending {
            if let recordID = entry.recordID {
                // Updates to one record go out one at a time, oldest first.
                if recordsWithEarlierWork.contains(recordID) { continue }
                recordsWithEarlierWork.insert(recordID)
            }
            if inFlight.contains(entry.id) { continue }
            if let due = entry.nextAttemptAt, due > now { continue }
            return index
        }
        return nil
    }

    /// Returns false when the attempt could not be recorded (nothing was sent).
    private func send(at index: Int, for sync: Sync) -> Bool {
        var updated = file
        updated.entries[index].attempts += 1
        let entry = updated.entries[index]
        do {
            try save(updated)
        } catch {
            record("\(entry.label): could not record attempt, not sending (\(type(of: error)))")
            return false
        }
        file = updated
        inFlight.insert(entry.id)
        sync.ownRequests += 1
        record("\(entry.label): sending attempt \(entry.attempts) (sync #\(sync.id))")
        let request = OverflowOutboxRequest(idempotencyKey: entry.idempotencyKey, body: entry.body)
        transport.post(request) { [weak self] result in
            guard let self else { return }
            self.stateQueue.async {
                self.handle(result, for: entry.id, sync: sync)
            }
        }
        return true
    }

    private func handle(_ result: Result<OverflowOutboxHTTPResponse, any Error>, for id: UUID, sync: Sync) {
        inFlight.remove(id)
        sync.ownRequests -= 1
        defer { pump(sync) }
        guard let index = file.entries.firstIndex(where: { $0.id == id }) else { return }
        var updated = file
        let label = updated.entries[index].label

        switch result {
        case .success(let response) where (200..<300).contains(response.statusCode):
            updated.entries.remove(at: index)
            record("\(label): delivered (HTTP \(response.statusCode))")
        case .success(let response) where response.statusCode == 409:
            stop(&updated.entries[index],
                 reason: "HTTP 409 conflict: the server holds another request under this idempotency key")
        case .success(let response) where retryableClientErrors.contains(response.statusCode)
                                        || (500..<600).contains(response.statusCode):
            scheduleRetry(&updated.entries[index], cause: "HTTP \(response.statusCode)")
        case .success(let response) where (300..<500).contains(response.statusCode):
            var reason = "HTTP \(response.statusCode)"
            if let code = Self.serverErrorCode(in: response.body) { reason += " (\(code))" }
            stop(&updated.entries[index], reason: reason)
        case .success(let response):
            scheduleRetry(&updated.entries[index], cause: "unexpected HTTP \(response.statusCode)")
        case .failure(let error):
            // Lost connection, timeout, cancellation: the server may have applied it. Retry, same key.
            scheduleRetry(&updated.entries[index], cause: "transport error \(Self.describe(error))")
        }
        do {
            try save(updated)
            file = updated
        } catch {
            // Keep memory in step with what we tried to store; the next change retries the write.
            file = updated
            record("could not save outbox (\(type(of: error)))")
        }
    }

    private func scheduleRetry(_ entry: inout OverflowOutboxEntry, cause: String) {
        entry.consecutiveFailures += 1
        let delay = backoff.delay(afterFailures: entry.consecutiveFailures)
        entry.nextAttemptAt = now().addingTimeInterval(delay)
        record("\(entry.label): \(cause), retry in \(String(format: "%.2f", delay)) s (failure \(entry.consecutiveFailures))")
    }

    private func stop(_ entry: inout OverflowOutboxEntry, reason: String) {
        entry.state = .needsAttention
        entry.failureReason = reason
        entry.nextAttemptAt = nil
        record("\(entry.label): stopped, \(reason)")
    }

    // MARK: Helpers

    private func record(_ line: String) {
        log.append(line)
        if log.count > 500 { log.removeFirst(log.count - 500) }
    }

    private func save(_ contents: OverflowOutboxFile) throws {
        do {
            let data = try Self.encoder.encode(contents)
            try data.write(to: fileURL, options: .atomic)
        } catch {
            throw OverflowOutboxError.persistenceFailed(underlying: error)
        }
    }

    private static func readFile(at url: URL) throws -> OverflowOutboxFile? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try decoder.decode(OverflowOutboxFile.self, from: Data(contentsOf: url))
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    private static var decoder: JSONDecoder { JSONDecoder() }

    /// The machine-readable error code of an error body (`{"error": "validation_failed", ...}`).
    /// The free-text message is deliberately ignored: it can quote the values we sent.
    static func serverErrorCode(in body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let code = object["error"] as? String,
              code.count <= 64,
              code.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." })
        else { return nil }
        return code
    }

    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        return "\(nsError.domain) \(nsError.code)"
    }
}

extension OverflowOutboxOperationKind {
    var recordID: String? {
        if case .update(let recordID) = self { return recordID }
        return nil
    }
}
