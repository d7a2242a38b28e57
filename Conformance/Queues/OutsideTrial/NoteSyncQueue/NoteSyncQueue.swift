// From an outside trial (trial 38): written by an author who read only the kit's README, Docs and
// public API, in the style of a notes app's sync queue; bundled as written but for the names
// (prefixed `NoteSync…` where they clashed) and the adapters' imports.

import Foundation

/// Offline write queue for note edits.
///
/// - Owns every edit the user made that the server has not acknowledged yet.
/// - The whole queue lives in one JSON file, rewritten atomically on every change.
/// - Every edit gets an `Idempotency-Key` (a UUID) when it is first stored; every attempt of that
///   edit carries that key and the exact stored bytes.
/// - Editing a note again merges into that note's newest pending edit only while the server has
///   never seen that edit (no request ever carried its key, and none is in flight). Once a key has
///   been sent, its body is final: a later edit becomes an edit of its own, with a key of its own.
/// - One request at a time. A note's edits go out in the order they were made.
/// - 2xx completes; 409/422 (and other non-retryable 4xx) stop the edit as "needs attention";
///   5xx, 408, 429 and transport errors retry with capped exponential backoff plus jitter.
@MainActor
public final class NoteSyncQueue {

    public enum EditKind: Codable, Equatable, Sendable {
        case create
        case update(noteID: String)
    }

    public enum State: String, Codable, Sendable {
        case pending
        case needsAttention
    }

    public struct PendingEdit: Codable, Equatable, Sendable, Identifiable {
        public let id: UUID
        /// The caller's tag for the latest edit this row carries (the UI's edit id).
        public var label: String
        public let kind: EditKind
        /// The exact request body. Never re-encoded.
        public var payload: Data
        public let idempotencyKey: String
        public let createdAt: Date
        /// Requests sent for this edit; bumped and saved *before* each request leaves.
        public var attempts: Int
        public var state: State
        /// Earliest time of the next attempt (backoff), nil when due at once.
        public var nextAttemptAt: Date?
        /// Why the edit stopped (status code only, never the server's message or the payload).
        public var diagnostic: String?

        public var noteID: String? {
            if case .update(let noteID) = kind { return noteID }
            return nil
        }

        /// True once any request carried this key: from then on the server may know the key, so
        /// its body can never change.
        public var serverMaySeeKey: Bool { attempts > 0 }
    }

    public struct Configuration: Sendable {
        public var endpoint: URL
        public var baseDelay: Double
        public var maxDelay: Double

        public init(endpoint: URL = URL(string: "https://api.notes.example/v1")!,
                    baseDelay: Double = 1, maxDelay: Double = 30) {
            self.endpoint = endpoint
            self.baseDelay = baseDelay
            self.maxDelay = maxDelay
        }
    }

    private struct FileContents: Codable {
        var version: Int
        var edits: [PendingEdit]
    }

    public nonisolated static let fileName = "note-sync-queue.json"

    private let fileURL: URL
    private let transport: any NoteSyncTransport
    private let clock: NoteSyncClock
    private var random: any RandomNumberGenerator
    private let configuration: Configuration

    public private(set) var edits: [PendingEdit]
    public private(set) var log: [String] = []
    private var inFlightID: UUID?
    private var isSyncing = false

    public init(directory: URL,
                transport: any NoteSyncTransport,
                clock: NoteSyncClock,
                random: any RandomNumberGenerator = SystemRandomNumberGenerator(),
                configuration: Configuration = Configuration()) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.fileURL = directory.appendingPathComponent(Self.fileName)
        self.transport = transport
        self.clock = clock
        self.random = random
        self.configuration = configuration
        self.edits = try Self.read(fileURL)
    }

    // MARK: Reading storage without a live queue

    public nonisolated static func storedEdits(in directory: URL) throws -> [PendingEdit] {
        try read(directory.appendingPathComponent(fileName))
    }

    private nonisolated static func read(_ url: URL) throws -> [PendingEdit] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        let data = try Data(contentsOf: url)
        return try JSONDecoder().decode(FileContents.self, from: data).edits
    }

    private func write(_ newEdits: [PendingEdit]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(FileContents(version: 1, edits: newEdits))
        try data.write(to: fileURL, options: .atomic)
    }

    /// Saves first, then adopts the new list, so memory never runs ahead of the file.
    private func commit(_ newEdits: [PendingEdit]) throws {
        try write(newEdits)
        edits = newEdits
    }

    // MARK: Editing (called by the UI)

    /// Convenience for the editor: title and body of a note as JSON with a fixed key order.
    public func saveNote(id noteID: String, title: String, body: String) throws {
        struct Draft: Encodable { let id: String; let title: String; let body: String }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let payload = try encoder.encode(Draft(id: noteID, title: title, body: body))
        try enqueue(.update(noteID: noteID), payload: payload, label: UUID().uuidString)
    }

    /// Stores an edit. Returns once it is on disk.
    public func enqueue(_ kind: EditKind, payload: Data, label: String) throws {
        if case .update(let noteID) = kind,
           let index = edits.lastIndex(where: { $0.noteID == noteID }),
           canMerge(into: edits[index]) {
            var updated = edits
            updated[index].payload = payload  // last write wins: the newest title/body
            updated[index].label = label
            try commit(updated)
            note("merged \(label) into pending edit \(short(updated[index].id))")
            return
        }
        let edit = PendingEdit(
            id: UUID(), label: label, kind: kind, payload: payload,
            idempotencyKey: UUID().uuidString, createdAt: clock.now(),
            attempts: 0, state: .pending, nextAttemptAt: nil, diagnostic: nil)
        try commit(edits + [edit])
        note("queued \(label) as \(short(edit.id))")
    }

    /// Merge only into an edit whose key no request ever carried (and which is not on its way):
    /// a key the server may have seen stays bound to the bytes it was sent with.
    private func canMerge(into edit: PendingEdit) -> Bool {
        edit.state == .pending && !edit.serverMaySeeKey && edit.id != inFlightID
    }

    // MARK: Sending

    /// Sends what is due, one request at a time, waiting out backoffs on the injected clock.
    /// A second call while one runs returns at once: the running one picks up new edits.
    public func sync() async {
        guard !isSyncing else { return }
        isSyncing = true
        defer { isSyncing = false }

        while !Task.isCancelled {
            let now = clock.now()
            if let next = nextSendable(at: now) {
                guard await send(next) else { return }
                continue
            }
            let deadlines = edits.filter { $0.state == .pending }.compactMap(\.nextAttemptAt)
            guard let wake = deadlines.min() else { return }  // nothing left to do
            let milliseconds = max(1, Int64((wake.timeIntervalSince(now) * 1000).rounded(.up)))
            do {
                try await clock.sleep(.milliseconds(milliseconds))
            } catch {
                return  // cancelled
            }
        }
    }

    /// The oldest due pending edit whose note has no older pending edit (per-note order).
    private func nextSendable(at now: Date) -> UUID? {
        var notesWaiting = Set<String>()
        for edit in edits where edit.state == .pending {
            let due = edit.nextAttemptAt.map { $0 <= now } ?? true
            if let noteID = edit.noteID {
                if notesWaiting.contains(noteID) { continue }
                notesWaiting.insert(noteID)
            }
            if due { return edit.id }
        }
        return nil
    }

    /// Returns false when the sync should stop (storage failure or cancellation).
    private func send(_ id: UUID) async -> Bool {
        guard let index = edits.firstIndex(where: { $0.id == id }) else { return true }
        var updated = edits
        updated[index].attempts += 1
        updated[index].nextAttemptAt = nil
        do {
            try commit(updated)  // the key is "seen" from here on, even if we crash mid-request
        } catch {
            note("could not save before sending \(short(id)): \(type(of: error))")
            return false
        }
        let edit = edits[index]
        let request = makeRequest(for: edit)
        inFlightID = id
        note("sending \(short(id)) attempt \(edit.attempts)")
        let transport = self.transport
        let result: Result<NoteSyncResponse, any Error> = await withCheckedContinuation { continuation in
            transport.send(request) { result in continuation.resume(returning: result) }
        }
        inFlightID = nil
        do {
            try handle(result, for: id)
        } catch {
            note("could not save the answer for \(short(id)): \(type(of: error))")
            return false
        }
        return !Task.isCancelled
    }

    private func handle(_ result: Result<NoteSyncResponse, any Error>, for id: UUID) throws {
        guard let index = edits.firstIndex(where: { $0.id == id }) else { return }
        var updated = edits
        switch result {
        case .success(let response) where (200..<300).contains(response.statusCode):
            updated.remove(at: index)
            try commit(updated)
            note("\(short(id)) done (HTTP \(response.statusCode))")
        case .success(let response) where Self.isRetryable(response.statusCode):
            updated[index].nextAttemptAt = retryDate(afterAttempt: updated[index].attempts)
            try commit(updated)
            note("\(short(id)) HTTP \(response.statusCode), will retry")
        case .success(let response):
            updated[index].state = .needsAttention
            updated[index].nextAttemptAt = nil
            updated[index].diagnostic = Self.reason(for: response.statusCode)
            try commit(updated)
            note("\(short(id)) stopped: HTTP \(response.statusCode)")
        case .failure(let error):
            // Unknown outcome: the server may or may not have applied it. Same key, same bytes.
            updated[index].nextAttemptAt = retryDate(afterAttempt: updated[index].attempts)
            try commit(updated)
            note("\(short(id)) transport error \(type(of: error)), will retry")
        }
    }

    static func isRetryable(_ status: Int) -> Bool {
        status == 408 || status == 429 || (500..<600).contains(status)
    }

    static func reason(for status: Int) -> String {
        switch status {
        case 409: return "HTTP 409: the server holds a different version for this edit (needs attention)"
        case 422: return "HTTP 422: the server rejected this edit (needs attention)"
        case 400..<500: return "HTTP \(status): rejected, not retried (needs attention)"
        default: return "HTTP \(status): unexpected answer, kept for review (needs attention)"
        }
    }

    /// Capped exponential backoff with jitter in [50 %, 95 %) of the step: always positive,
    /// always below `maxDelay`.
    private func retryDate(afterAttempt attempt: Int) -> Date {
        let exponent = Double(min(max(attempt - 1, 0), 30))
        let step = min(configuration.maxDelay, configuration.baseDelay * pow(2, exponent))
        let factor = 0.5 + 0.45 * unitRandom()
        return clock.now().addingTimeInterval(step * factor)
    }

    /// A uniform value in [0, 1) from the injected generator.
    private func unitRandom() -> Double {
        Double(random.next() >> 11) * 0x1p-53
    }

    private func makeRequest(for edit: PendingEdit) -> NoteSyncRequest {
        let notes = configuration.endpoint.appendingPathComponent("notes")
        let url: URL
        let method: String
        switch edit.kind {
        case .create:
            url = notes
            method = "POST"
        case .update(let noteID):
            url = notes.appendingPathComponent(noteID)
            method = "PATCH"
        }
        return NoteSyncRequest(
            url: url, httpMethod: method,
            headers: ["Content-Type": "application/json",
                      NoteSyncRequest.idempotencyHeader: edit.idempotencyKey],
            body: edit.payload)
    }

    // MARK: Diagnostics (never payloads or server messages)

    private func note(_ line: String) {
        log.append(line)
        if log.count > 500 { log.removeFirst(log.count - 500) }
    }

    private func short(_ id: UUID) -> String { String(id.uuidString.prefix(8)) }
}
