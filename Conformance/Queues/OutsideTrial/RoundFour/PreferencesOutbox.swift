// From an outside trial (round four): written from the docs alone by an author who had not read
// the kit's sources; bundled as written, with its names changed only.

import Foundation

/// A UserDefaults-like key-value store (the app passes a wrapper around UserDefaults.standard).
public final class PreferencesStore: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String: Data] = [:]
    public init() {}
    public func data(forKey key: String) -> Data? { lock.lock(); defer { lock.unlock() }; return values[key] }
    public func set(_ data: Data?, forKey key: String) { lock.lock(); defer { lock.unlock() }; values[key] = data }
}

public struct PreferencesPendingWrite: Codable, Sendable, Equatable {
    public var id: UUID
    public var label: String
    public var idempotencyKey: String
    public var body: Data
    public var attempts: Int
    public var createdAt: Date
    public var stoppedReason: String?   // non-nil: needs the user's attention
}

/// FIFO outbox stored under one defaults key; a sync retries the head inline with a short
/// capped backoff (1 s, 2 s, 4 s) and then leaves it for the next sync.
///
/// BUG (deliberate): a request that throws (timeout, connection lost) is treated as a hard
/// failure and the write is dropped.
public actor PreferencesOutbox {
    public typealias Send = @Sendable (_ key: String, _ body: Data) async throws -> Int
    public static let defaultsKey = "r4.pendingWrites"

    private let store: PreferencesStore
    private let send: Send
    private let sleep: @Sendable (Duration) async throws -> Void
    private let now: @Sendable () -> Date
    private var syncing = false

    public init(store: PreferencesStore, now: @escaping @Sendable () -> Date = Date.init,
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await ContinuousClock().sleep(for: $0) },
                send: @escaping Send) {
        self.store = store; self.send = send; self.sleep = sleep; self.now = now
    }

    public static func pendingWrites(in store: PreferencesStore) -> [PreferencesPendingWrite] {
        guard let data = store.data(forKey: defaultsKey) else { return [] }
        return (try? JSONDecoder().decode([PreferencesPendingWrite].self, from: data)) ?? []
    }

    private var writes: [PreferencesPendingWrite] {
        get { Self.pendingWrites(in: store) }
        set { store.set(try? JSONEncoder().encode(newValue), forKey: Self.defaultsKey) }
    }

    public func add(label: String, body: Data) {
        writes.append(PreferencesPendingWrite(id: UUID(), label: label, idempotencyKey: UUID().uuidString,
                                     body: body, attempts: 0, createdAt: now(), stoppedReason: nil))
    }

    public func sync() async {
        guard !syncing else { return }     // one sync at a time
        syncing = true
        defer { syncing = false }
        var done: Set<UUID> = []
        while !Task.isCancelled,
              let head = writes.first(where: { $0.stoppedReason == nil && !done.contains($0.id) }) {
            done.insert(head.id)
            var retries = 0
            attempts: while !Task.isCancelled {
                update(head.id) { $0.attempts += 1 }
                let status: Int
                do {
                    status = try await send(head.idempotencyKey, head.body)
                } catch is CancellationError {
                    return
                } catch {
                    // BUG: a timeout or lost connection is not a rejection; the server may have
                    // applied the write. Dropping it loses the user's change.
                    remove(head.id)
                    break attempts
                }
                switch status {
                case 200..<300:
                    remove(head.id)
                    break attempts
                case 408, 429, 300..<400, 500...:
                    retries += 1
                    if retries > 3 { return }          // try again on the next sync
                    do { try await sleep(.seconds(1 << (retries - 1))) } catch { return }
                default:                                // 409 and other 4xx
                    update(head.id) { $0.stoppedReason = "HTTP \(status)" }
                    break attempts
                }
            }
        }
    }

    private func update(_ id: UUID, _ change: (inout PreferencesPendingWrite) -> Void) {
        var all = writes
        guard let i = all.firstIndex(where: { $0.id == id }) else { return }
        change(&all[i])
        writes = all
    }

    private func remove(_ id: UUID) { writes.removeAll { $0.id == id } }
}
