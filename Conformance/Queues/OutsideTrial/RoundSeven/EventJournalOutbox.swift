// From an outside trial (round seven): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only (and `_ =` before a
// `createFile` whose result Linux's Foundation warns about).

import Foundation

/// Round 7 (a): an event-sourced outbox. Every change is an event appended to a JSON-lines
/// journal; the queue's state is the fold of the journal, rebuilt at launch (and compacted).
public enum EventJournalEvent: Codable, Sendable, Equatable {
    case enqueued(id: UUID, label: String, key: String, body: Data, createdAt: Date)
    case attemptStarted(id: UUID)
    case retryScheduled(id: UUID, attempts: Int, dueAt: Date, status: String)
    case stopped(id: UUID, reason: String)
    case delivered(id: UUID)
}

public struct EventJournalTask: Sendable, Equatable {
    public var id: UUID
    public var label: String
    public var key: String
    public var body: Data
    public var createdAt: Date
    public var attempts: Int = 0
    public var failures: Int = 0
    public var dueAt: Date
    public var stopReason: String?
    public var delivered = false
}

public struct EventJournalState: Sendable {
    public private(set) var order: [UUID] = []
    public private(set) var tasks: [UUID: EventJournalTask] = [:]

    public init() {}

    public mutating func apply(_ event: EventJournalEvent) {
        switch event {
        case let .enqueued(id, label, key, body, createdAt):
            guard tasks[id] == nil else { return }
            order.append(id)
            tasks[id] = EventJournalTask(id: id, label: label, key: key, body: body, createdAt: createdAt, dueAt: createdAt)
        case let .attemptStarted(id):
            tasks[id]?.attempts += 1
        case let .retryScheduled(id, attempts, dueAt, _):
            tasks[id]?.failures = attempts
            tasks[id]?.dueAt = dueAt
        case let .stopped(id, reason):
            tasks[id]?.stopReason = reason
        case let .delivered(id):
            tasks[id]?.delivered = true
        }
    }

    /// Tasks still in the outbox (delivered ones are folded away), in submit order.
    public var live: [EventJournalTask] {
        order.compactMap { tasks[$0] }.filter { !$0.delivered }
    }

    /// The events that rebuild `live` exactly (for compaction).
    public var compactedEvents: [EventJournalEvent] {
        live.flatMap { t -> [EventJournalEvent] in
            var events: [EventJournalEvent] = [.enqueued(id: t.id, label: t.label, key: t.key, body: t.body, createdAt: t.createdAt)]
            events += Array(repeating: .attemptStarted(id: t.id), count: t.attempts)
            if t.failures > 0 { events.append(.retryScheduled(id: t.id, attempts: t.failures, dueAt: t.dueAt, status: "compacted")) }
            if let reason = t.stopReason { events.append(.stopped(id: t.id, reason: reason)) }
            return events
        }
    }
}

public actor EventJournalOutbox {
    public typealias Post = @Sendable (_ key: String, _ body: Data) async throws -> Int

    public static let journalName = "outbox.journal"

    private let journalURL: URL
    private let post: Post
    private let now: @Sendable () -> Date
    private let baseDelay: TimeInterval
    private let maxDelay: TimeInterval
    private var state: EventJournalState
    private var sending: Set<UUID> = []
    public private(set) var log: [String] = []

    public init(directory: URL, baseDelay: TimeInterval = 1, maxDelay: TimeInterval = 32,
                now: @escaping @Sendable () -> Date, post: @escaping Post) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        journalURL = directory.appendingPathComponent(Self.journalName)
        self.post = post
        self.now = now
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        state = try Self.rebuild(from: journalURL)
        try Self.compact(state, to: journalURL)
    }

    // MARK: Journal

    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        e.dateEncodingStrategy = .secondsSince1970
        return e
    }()
    private static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .secondsSince1970
        return d
    }()

    /// Folds the journal; a torn last line (a crash mid-append) is ignored.
    public static func rebuild(from url: URL) throws -> EventJournalState {
        var state = EventJournalState()
        guard let data = try? Data(contentsOf: url) else { return state }
        for line in data.split(separator: UInt8(ascii: "\n")) {
            if let event = try? decoder.decode(EventJournalEvent.self, from: Data(line)) {
                state.apply(event)
            }
        }
        return state
    }

    private static func compact(_ state: EventJournalState, to url: URL) throws {
        var data = Data()
        for event in state.compactedEvents {
            data.append(try encoder.encode(event))
            data.append(UInt8(ascii: "\n"))
        }
        try data.write(to: url, options: .atomic)
    }

    private func append(_ event: EventJournalEvent) throws {
        var line = try Self.encoder.encode(event)
        line.append(UInt8(ascii: "\n"))
        if !FileManager.default.fileExists(atPath: journalURL.path) {
            _ = FileManager.default.createFile(atPath: journalURL.path, contents: nil)
        }
        let handle = try FileHandle(forWritingTo: journalURL)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: line)
        try handle.synchronize()
        state.apply(event)
    }

    // MARK: API

    @discardableResult
    public func enqueue(label: String, body: Data) throws -> String {
        let key = UUID().uuidString
        try append(.enqueued(id: UUID(), label: label, key: key, body: body, createdAt: now()))
        log.append("enqueued \(label) key=\(key.prefix(8))")
        return key
    }

    public var tasks: [EventJournalTask] { state.live }

    /// One sync: sends every due, unstopped task that no other pass is sending.
    public func flush() async throws {
        let candidates = state.live.map(\.id)
        for id in candidates {
            // Read the task again: another pass may have delivered or stopped it meanwhile.
            guard let task = state.tasks[id], !task.delivered, task.stopReason == nil,
                  !sending.contains(id), task.dueAt <= now() else { continue }
            sending.insert(id)
            defer { sending.remove(id) }
            try append(.attemptStarted(id: id))
            let outcome: Result<Int, any Error>
            do { outcome = .success(try await post(task.key, task.body)) } catch { outcome = .failure(error) }
            try record(outcome, for: id)
        }
    }

    private func record(_ outcome: Result<Int, any Error>, for id: UUID) throws {
        guard let task = state.tasks[id] else { return }
        switch outcome {
        case .success(let status) where (200..<300).contains(status):
            try append(.delivered(id: id))
            log.append("delivered \(task.label) (\(status))")
        case .success(let status) where status == 409:
            try append(.stopped(id: id, reason: "HTTP 409 conflict: the key was used with another body"))
            log.append("stopped \(task.label): 409 conflict")
        case .success(let status) where (400..<500).contains(status) && status != 408 && status != 429:
            try append(.stopped(id: id, reason: "HTTP \(status): rejected by the server"))
            log.append("stopped \(task.label): HTTP \(status)")
        case .success(let status):
            try scheduleRetry(task, reason: "HTTP \(status)")
        case .failure(let error):
            try scheduleRetry(task, reason: String(describing: type(of: error)))
        }
    }

    private func scheduleRetry(_ task: EventJournalTask, reason: String) throws {
        let failures = task.failures + 1
        let delay = min(maxDelay, baseDelay * pow(2, Double(min(failures - 1, 30))))
        try append(.retryScheduled(id: task.id, attempts: failures, dueAt: now().addingTimeInterval(delay), status: reason))
        log.append("retry \(task.label) in \(Int(delay)) s after \(reason)")
    }
}
