// From an outside trial (round five): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation

/// (d) BUGGY. Completion-handler sync queue on a serial DispatchQueue, merges draft edits.
/// BUG: a new edit is merged into ANY pending update of the same draft, including one that
/// was already sent and whose outcome is unknown (503 / dropped connection): the retry then
/// carries a different body under the key the server may already have recorded.
public struct MergingDraftRow: Sendable, Equatable {
    public var rowID: Int
    public var label: String
    public var draftID: String?
    public var key: String
    public var body: Data
    public var attempts: Int
    public var dueAt: Date
    public var failed: Bool
    public var failure: String?
}

public final class MergingDraftStore: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [MergingDraftRow] = []
    private var lastRowID = 0
    public init() {}
    public func update<T>(_ body: (inout [MergingDraftRow], inout Int) -> T) -> T {
        lock.lock(); defer { lock.unlock() }
        return body(&rows, &lastRowID)
    }
    public var all: [MergingDraftRow] { update { r, _ in r } }
}

public final class MergingDraftSyncQueue: @unchecked Sendable {
    public typealias Send = (_ key: String, _ body: Data, _ done: @escaping @Sendable (Int?) -> Void) -> Void
    private let store: MergingDraftStore
    private let send: Send
    private let now: @Sendable () -> Date
    private let queue = DispatchQueue(label: "r5.draftsync")
    private var inFlight: Set<Int> = []   // touched on `queue` only
    private var _log: [String] = []
    public static let maxDelay: TimeInterval = 8

    public init(store: MergingDraftStore, now: @escaping @Sendable () -> Date, send: @escaping Send) {
        self.store = store; self.now = now; self.send = send
    }

    public var log: [String] { queue.sync { _log } }
    public func barrier() { queue.sync {} }

    public func save(label: String, draftID: String?, body: Data) {
        queue.sync {
            let t = now()
            store.update { rows, last in
                if let draftID,
                   let i = rows.firstIndex(where: { $0.draftID == draftID && !$0.failed && !inFlight.contains($0.rowID) }) {
                    // BUG: should also require rows[i].attempts == 0
                    rows[i].body = body
                    rows[i].label = label
                    return
                }
                last += 1
                rows.append(MergingDraftRow(rowID: last, label: label, draftID: draftID, key: UUID().uuidString,
                                       body: body, attempts: 0, dueAt: t, failed: false))
            }
        }
    }

    public func sync(completion: @escaping @Sendable () -> Void) {
        queue.async {
            let t = self.now()
            let due = self.store.all.filter { !$0.failed && $0.dueAt <= t && !self.inFlight.contains($0.rowID) }
                .sorted { $0.rowID < $1.rowID }.map(\.rowID)
            self.sendNext(due[...], completion: completion)
        }
    }

    private func sendNext(_ ids: ArraySlice<Int>, completion: @escaping @Sendable () -> Void) {
        guard let id = ids.first else { completion(); return }
        let rest = ids.dropFirst()
        let t = now()
        let row: MergingDraftRow? = store.update { rows, _ in
            guard let i = rows.firstIndex(where: { $0.rowID == id }), !rows[i].failed, rows[i].dueAt <= t,
                  !inFlight.contains(id) else { return nil }
            rows[i].attempts += 1
            return rows[i]
        }
        guard let row else { sendNext(rest, completion: completion); return }
        inFlight.insert(id)
        send(row.key, row.body) { status in
            self.queue.async {
                self.inFlight.remove(id)
                self.record(status, rowID: id)
                self.sendNext(rest, completion: completion)
            }
        }
    }

    private func record(_ status: Int?, rowID: Int) {
        let t = now()
        let line: String = store.update { rows, _ in
            guard let i = rows.firstIndex(where: { $0.rowID == rowID }) else { return "row gone" }
            let label = rows[i].label
            if let s = status, (200..<300).contains(s) { rows.remove(at: i); return "\(label) ok" }
            if let s = status, (400..<500).contains(s), s != 408, s != 429 {
                rows[i].failed = true; rows[i].failure = "HTTP \(s)"; return "\(label) failed HTTP \(s)"
            }
            let d = min(Self.maxDelay, pow(2, Double(min(rows[i].attempts - 1, 5))))
            rows[i].dueAt = t.addingTimeInterval(d)
            return "\(label) retry in \(d)s"
        }
        _log.append(line)
    }
}
