// From an outside trial (round five): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation

/// (c) BUGGY. Strictly ordered (head-of-line) mutation queue, actor over a durable store.
/// BUG: the request body is rebuilt at every attempt with a fresh "client_sent_at" stamp,
/// so a retry under the same idempotency key carries different bytes than the first attempt.
public struct HeadOfLineRow: Sendable, Equatable {
    public var seq: Int
    public var label: String
    public var key: String
    public var payload: Data
    public var attempts: Int
    public var dueAt: Date
    public var stopped: Bool
    public var diagnostic: String?
}

public final class HeadOfLineStore: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [HeadOfLineRow] = []
    private var nextSeq = 1
    public init() {}
    public func write<T>(_ body: (inout [HeadOfLineRow], inout Int) throws -> T) rethrows -> T {
        lock.lock(); defer { lock.unlock() }
        return try body(&rows, &nextSeq)
    }
    public var rowsSnapshot: [HeadOfLineRow] { write { r, _ in r } }
}

public actor HeadOfLineOutbox {
    public typealias Post = @Sendable (_ key: String, _ body: Data) async throws -> Int
    let store: HeadOfLineStore
    let post: Post
    let now: @Sendable () -> Date
    private var headInFlight: Int?
    public private(set) var log: [String] = []
    public static let maxDelay: TimeInterval = 20
    nonisolated(unsafe) private static let stamp: ISO8601DateFormatter = {
        let f = ISO8601DateFormatter(); f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]; return f
    }()

    public init(store: HeadOfLineStore, post: @escaping Post, now: @escaping @Sendable () -> Date) {
        self.store = store; self.post = post; self.now = now
    }

    public func enqueue(label: String, payload: Data) {
        let t = now()
        store.write { rows, seq in
            rows.append(HeadOfLineRow(seq: seq, label: label, key: UUID().uuidString, payload: payload,
                                     attempts: 0, dueAt: t, stopped: false))
            seq += 1
        }
    }

    private func requestBody(for row: HeadOfLineRow) -> Data {
        var object = (try? JSONSerialization.jsonObject(with: row.payload)) as? [String: Any] ?? [:]
        object["client_sent_at"] = Self.stamp.string(from: now())   // <- the bug: stamped per attempt
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? row.payload
    }

    public func drain() async {
        while !Task.isCancelled {
            guard headInFlight == nil else { return }
            let t = now()
            guard var head = store.rowsSnapshot.filter({ !$0.stopped }).min(by: { $0.seq < $1.seq }) else { return }
            guard head.dueAt <= t else { return }
            headInFlight = head.seq
            head = store.write { rows, _ in
                let i = rows.firstIndex { $0.seq == head.seq }!
                rows[i].attempts += 1
                return rows[i]
            }
            let body = requestBody(for: head)
            var status: Int?
            do { status = try await post(head.key, body) } catch { status = nil }
            headInFlight = nil
            let line = apply(status, to: head.seq)
            log.append(line)
            if !(status.map { (200..<300).contains($0) || ((400..<500).contains($0) && $0 != 408 && $0 != 429) } ?? false) {
                return  // head must wait: ordered mutations
            }
        }
    }

    private func apply(_ status: Int?, to seq: Int) -> String {
        let t = now()
        return store.write { rows, _ in
            guard let i = rows.firstIndex(where: { $0.seq == seq }) else { return "row \(seq) gone" }
            let label = rows[i].label
            if let s = status, (200..<300).contains(s) { rows.remove(at: i); return "\(label) done" }
            if let s = status, (400..<500).contains(s), s != 408, s != 429 {
                rows[i].stopped = true; rows[i].diagnostic = "HTTP \(s)"
                return "\(label) stopped: HTTP \(s)"
            }
            let d = min(Self.maxDelay, pow(2, Double(min(rows[i].attempts - 1, 6))))
            rows[i].dueAt = t.addingTimeInterval(d)
            return "\(label) retry in \(d)s (\(status.map { "HTTP \($0)" } ?? "no response"))"
        }
    }
}
