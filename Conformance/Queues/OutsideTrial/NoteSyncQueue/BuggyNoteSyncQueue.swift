// From an outside trial (trial 38): written by an author who read only the kit's README, Docs and
// public API, in the style of a notes app's sync queue; bundled as written but for the names
// (prefixed `NoteSync…` where they clashed) and the adapters' imports.

import Foundation

/// A second notes outbox, written separately, with the same intended behaviour as
/// `NoteSyncQueue` and ONE planted bug (see `record(target:bytes:tag:)`): an edit to a note whose
/// previous edit is on the wire right now is folded into that in-flight item, so the item's
/// stored bytes change under a key the server may already have, and the next retry sends the
/// new bytes under the old key (and a success of the old request drops the new text).
@MainActor
public final class BuggyNoteSyncQueue {

    public struct Item: Codable, Equatable, Sendable {
        public var uid: String
        public var tag: String
        public var target: String?         // note id for an edit of an existing note, nil for a new note
        public var bytes: Data
        public var key: String
        public var born: Date
        public var tries: Int
        public var notBefore: Date?
        public var blockedReason: String?  // non-nil: stopped, needs the user's attention

        var isActive: Bool { blockedReason == nil }
    }

    private struct Journal: Codable {
        var items: [Item] = []
    }

    private struct Backoff {
        var base: Double = 1
        var ceiling: Double = 30
        func seconds(afterTry tries: Int, unit: Double) -> Double {
            var step = base
            var n = 1
            while n < tries && step < ceiling { step *= 2; n += 1 }
            return min(step, ceiling) * (0.5 + 0.45 * unit)
        }
    }

    public nonisolated static let journalName = "outbox.json"

    private let journalURL: URL
    private let http: any NoteSyncTransport
    private let now: @Sendable () -> Date
    private let pause: @Sendable (Duration) async throws -> Void
    private var dice: any RandomNumberGenerator
    private let backoff = Backoff()
    private let apiBase: URL

    private var journal: Journal
    private var sendingUID: String?
    private var flushing = false
    public private(set) var events: [String] = []

    public init(folder: URL, http: any NoteSyncTransport, clock: NoteSyncClock,
                dice: any RandomNumberGenerator = SystemRandomNumberGenerator(),
                apiBase: URL = URL(string: "https://api.notes.example/v1")!) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        journalURL = folder.appendingPathComponent(Self.journalName)
        self.http = http
        self.now = clock.now
        self.pause = clock.sleep
        self.dice = dice
        self.apiBase = apiBase
        journal = try Self.load(journalURL)
    }

    public var items: [Item] { journal.items }

    public nonisolated static func items(in folder: URL) throws -> [Item] {
        try load(folder.appendingPathComponent(journalName)).items
    }

    private nonisolated static func load(_ url: URL) throws -> Journal {
        guard let data = try? Data(contentsOf: url) else { return Journal() }
        return try JSONDecoder().decode(Journal.self, from: data)
    }

    /// Applies `change` to a copy, writes the copy atomically, then keeps it.
    private func mutate(_ change: (inout Journal) -> Void) throws {
        var copy = journal
        change(&copy)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try encoder.encode(copy).write(to: journalURL, options: [.atomic])
        journal = copy
    }

    // MARK: UI entry points

    public func createNote(bytes: Data, tag: String) throws {
        try record(target: nil, bytes: bytes, tag: tag)
    }

    public func editNote(_ noteID: String, bytes: Data, tag: String) throws {
        try record(target: noteID, bytes: bytes, tag: tag)
    }

    private func record(target: String?, bytes: Data, tag: String) throws {
        if let noteID = target,
           let slot = journal.items.lastIndex(where: { $0.target == noteID }) {
            let existing = journal.items[slot]
            // Fold into the newest edit of this note if the server hasn't got it yet. If it is on
            // the wire right now, swap in the newer text too, so a retry carries the latest text.
            // (PLANTED BUG: the in-flight case; its key was already sent with the old bytes.)
            if existing.isActive && (existing.tries == 0 || existing.uid == sendingUID) {
                try mutate {
                    $0.items[slot].bytes = bytes
                    $0.items[slot].tag = tag
                }
                events.append("folded \(tag) into \(existing.uid.prefix(8))")
                return
            }
        }
        let item = Item(uid: UUID().uuidString, tag: tag, target: target, bytes: bytes,
                        key: UUID().uuidString, born: now(), tries: 0,
                        notBefore: nil, blockedReason: nil)
        try mutate { $0.items.append(item) }
        events.append("recorded \(tag) as \(item.uid.prefix(8))")
    }

    // MARK: Flushing

    public func flush() async {
        if flushing { return }  // the running flush re-reads the journal after every answer
        flushing = true
        defer { flushing = false }

        while !Task.isCancelled {
            let moment = now()
            if let uid = readyItem(at: moment) {
                if await deliver(uid) == false { return }
            } else if let wake = journal.items.filter(\.isActive).compactMap(\.notBefore).min() {
                let ms = Int64((wake.timeIntervalSince(moment) * 1000).rounded(.up))
                do { try await pause(.milliseconds(max(ms, 1))) } catch { return }
            } else {
                return
            }
        }
    }

    private func readyItem(at moment: Date) -> String? {
        var seenNotes: Set<String> = []
        return journal.items.first { item in
            guard item.isActive else { return false }
            if let target = item.target {
                // only the oldest active edit of a note may go out
                guard seenNotes.insert(target).inserted else { return false }
            }
            return (item.notBefore ?? .distantPast) <= moment
        }?.uid
    }

    private func deliver(_ uid: String) async -> Bool {
        do {
            try mutate { journal in
                guard let i = journal.items.firstIndex(where: { $0.uid == uid }) else { return }
                journal.items[i].tries += 1
                journal.items[i].notBefore = nil
            }
        } catch {
            events.append("journal write failed before send")
            return false
        }
        guard let item = journal.items.first(where: { $0.uid == uid }) else { return true }

        var url = apiBase.appendingPathComponent("notes")
        if let target = item.target { url = url.appendingPathComponent(target) }
        let request = NoteSyncRequest(
            url: url, httpMethod: item.target == nil ? "POST" : "PATCH",
            headers: [NoteSyncRequest.idempotencyHeader: item.key, "Content-Type": "application/json"],
            body: item.bytes)

        sendingUID = uid
        events.append("-> \(uid.prefix(8)) try \(item.tries)")
        let http = self.http
        let outcome = await withCheckedContinuation { (done: CheckedContinuation<Result<NoteSyncResponse, any Error>, Never>) in
            http.send(request) { done.resume(returning: $0) }
        }
        sendingUID = nil

        let status: Int? = try? outcome.get().statusCode
        let roll = Double(dice.next() % 1_000_000) / 1_000_000
        do {
            try mutate { journal in
                guard let i = journal.items.firstIndex(where: { $0.uid == uid }) else { return }
                switch status {
                case .some(200...299):
                    journal.items.remove(at: i)
                case .some(408), .some(429), .some(500...599), .none:
                    let wait = backoff.seconds(afterTry: journal.items[i].tries, unit: roll)
                    journal.items[i].notBefore = now().addingTimeInterval(wait)
                case .some(let code):
                    journal.items[i].blockedReason = code == 409 || code == 422
                        ? "HTTP \(code): conflict/validation, needs attention"
                        : "HTTP \(code): not retried, needs attention"
                }
            }
        } catch {
            events.append("journal write failed after answer")
            return false
        }
        events.append("<- \(uid.prefix(8)) \(status.map(String.init) ?? "transport error")")
        return !Task.isCancelled
    }
}
