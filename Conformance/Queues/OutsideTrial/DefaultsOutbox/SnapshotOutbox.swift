// Written from the kit's docs alone by an outside trial (its third round) as a buggy queue,
// unchanged but for its names: a sync writes back the outbox copy it read when it began, so a
// task submitted while a request is on the network is lost. It passed every fixed contract
// until Q1 submitted during a pass's request.
import Foundation

/// The first version of our UserDefaults outbox (the one that lost writes in the field):
/// a sync reads the outbox dictionary once, then walks it, and after each answer writes
/// its copy back. A write queued while a request is on the network is overwritten by
/// the sync's older copy when the answer comes back.
actor SnapshotOutbox {
    static let defaultsKey = "snapshot-outbox.v1"

    private let store: any OutboxKeyValueStore
    private let post: OutboxPost
    private let timer: any OutboxRetryTimer
    private let now: @Sendable () -> Date
    private var isSending = false
    private(set) var log: [String] = []

    init(store: any OutboxKeyValueStore, timer: any OutboxRetryTimer,
                now: @escaping @Sendable () -> Date = Date.init, post: @escaping OutboxPost) {
        self.store = store
        self.timer = timer
        self.now = now
        self.post = post
    }

    func enqueue(label: String, json: Data) throws {
        guard let body = try JSONSerialization.jsonObject(with: json) as? [String: Any] else {
            throw CocoaError(.propertyListReadCorrupt)
        }
        var outbox = store.dictionary(forKey: Self.defaultsKey) ?? [:]
        outbox[UUID().uuidString] = [
            "label": label, "key": UUID().uuidString, "body": body,
            "createdAt": now(), "attempts": 0, "status": "pending",
        ] as [String: Any]
        store.set(outbox, forKey: Self.defaultsKey)
        log.append("queued \(label)")
    }

    func flush() async {
        guard !isSending else { return }
        isSending = true
        defer { isSending = false }
        var outbox = store.dictionary(forKey: Self.defaultsKey) ?? [:]
        let dueIDs = outbox.compactMap { id, value -> (String, Date)? in
            guard let record = value as? [String: Any], record["status"] as? String == "pending" else { return nil }
            if let next = record["nextAttemptAt"] as? Date, next > now() { return nil }
            return (id, record["createdAt"] as? Date ?? .distantPast)
        }.sorted { $0.1 < $1.1 }.map(\.0)

        for id in dueIDs where !Task.isCancelled {
            guard var record = outbox[id] as? [String: Any], let key = record["key"] as? String,
                  let body = record["body"] as? [String: Any],
                  let data = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
            else { continue }
            let label = record["label"] as? String ?? "?"
            let attempt = (record["attempts"] as? Int ?? 0) + 1
            record["attempts"] = attempt
            outbox[id] = record
            store.set(outbox, forKey: Self.defaultsKey)
            do {
                let status = try await post(key, data).statusCode
                log.append("\(label) attempt \(attempt): HTTP \(status)")
                switch status {
                case 200..<300:
                    outbox[id] = nil
                case 500..<600, 300..<400, 408, 429:
                    record["nextAttemptAt"] = now().addingTimeInterval(DefaultsOutbox.delay(afterAttempt: attempt))
                    outbox[id] = record
                case 409:
                    record["status"] = "stuck"; record["reason"] = "HTTP 409: conflicts with an earlier write"
                    outbox[id] = record
                default:
                    record["status"] = "stuck"; record["reason"] = "HTTP \(status): rejected by the server"
                    outbox[id] = record
                }
            } catch {
                log.append("\(label) attempt \(attempt): no answer (\(type(of: error)))")
                record["nextAttemptAt"] = now().addingTimeInterval(DefaultsOutbox.delay(afterAttempt: attempt))
                outbox[id] = record
            }
            store.set(outbox, forKey: Self.defaultsKey)  // BUG: writes back the copy read before the await
        }
        armTimer(outbox)
    }

    private func armTimer(_ outbox: [String: Any]) {
        let dues = outbox.values.compactMap { value -> Date? in
            guard let record = value as? [String: Any], record["status"] as? String == "pending" else { return nil }
            return record["nextAttemptAt"] as? Date ?? now()
        }
        guard let earliest = dues.min() else { timer.cancel(); return }
        timer.schedule(after: max(0.001, earliest.timeIntervalSince(now()))) { [weak self] in
            Task { await self?.flush() }
        }
    }

    static func storedTasks(in store: any OutboxKeyValueStore) -> [DefaultsOutbox.StoredTask] {
        let outbox = store.dictionary(forKey: defaultsKey) ?? [:]
        return outbox.compactMap { id, value in
            guard let record = value as? [String: Any], let key = record["key"] as? String,
                  let body = record["body"] as? [String: Any],
                  let data = try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
            else { return nil }
            return DefaultsOutbox.StoredTask(
                id: id, label: record["label"] as? String ?? "", key: key, bodyJSON: data,
                createdAt: record["createdAt"] as? Date ?? .distantPast,
                attempts: record["attempts"] as? Int ?? 0,
                isStuck: record["status"] as? String == "stuck",
                reason: record["reason"] as? String)
        }.sorted { $0.createdAt < $1.createdAt }
    }
}
